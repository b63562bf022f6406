"""Charts in words, built from each chart's own data: what a screen reader reads for the image.

Every platform gets the same description: Discord's attachment description holds up to 1024
characters and Slack's `alt_txt` up to 1000, so a description fits the smaller. Long labels
are shortened, never the numbers.
"""

from __future__ import annotations

from bot.i18n import _
from bot.i18n import percent as language_percent
from bot.model.views import AnyChart, Chart, LineChart, LinePanel, Series

DISCORD_DESCRIPTION_LIMIT = 1024
SLACK_ALT_TEXT_LIMIT = 1000
DESCRIPTION_LIMIT = min(DISCORD_DESCRIPTION_LIMIT, SLACK_ALT_TEXT_LIMIT)
LABEL_WIDTHS: tuple[int | None, ...] = (None, 48, 32, 20, 12)
ELLIPSIS = "…"


def describe_chart(chart: AnyChart, limit: int = DESCRIPTION_LIMIT) -> str:
    """The chart in words within `limit` characters, its labels shortened if need be."""
    text = ""
    for width in LABEL_WIDTHS:
        text = _describe(chart, width)
        if len(text) <= limit:
            return text
    return shorten(text, limit)


def shorten(text: str, width: int | None) -> str:
    """The text, cut with an ellipsis if it is longer than `width` characters (None: never)."""
    if width is None or len(text) <= width:
        return text
    return text[: max(0, width - 1)].rstrip() + ELLIPSIS


def bar_value(series: Series, index: int) -> str:
    """One bar's value as its end shows it ('8 of 13 (62%)'), else its rounded percentage."""
    if index < len(series.ends):
        return series.ends[index]
    return language_percent(round(series.values[index]) / 100)


def line_value(value: float) -> str:
    """A line chart's probability as a whole percentage, e.g. '97%'."""
    return language_percent(int(f"{value:.0%}"[:-1]) / 100)


def _describe(chart: AnyChart, width: int | None) -> str:
    if isinstance(chart, LineChart):
        return _line_description(chart, width)
    return _bar_description(chart, width)


def _bar_description(chart: Chart, width: int | None) -> str:
    head = _(
        "Bar chart: {title} Bars show {value_label}",
        title=_sentence(chart.title),
        value_label=_(chart.value_label),
    )
    if len(chart.series) > 1:
        head += ", " + _(" beside ").join(series.name for series in chart.series)
    rows = [_bar_row(chart, index, width) for index in range(len(chart.labels))]
    return f"{head}. " + "; ".join(rows) + "."


def _bar_row(chart: Chart, index: int, width: int | None) -> str:
    label = shorten(chart.labels[index], width)
    meaning = dict(chart.legend).get(chart.mark_of(index), "")
    if meaning and meaning != chart.labels[index]:
        label = f"{label} ({meaning})"
    if len(chart.series) == 1:
        return f"{label}: {bar_value(chart.series[0], index)}"
    values = ", ".join(f"{series.name} {bar_value(series, index)}" for series in chart.series)
    return f"{label}: {values}"


def _line_description(chart: LineChart, width: int | None) -> str:
    steps = [step for panel in chart.panels for step in panel.x]
    span = (
        _(
            " from {x_label} {first} to {last}",
            x_label=_(chart.x_label),
            first=min(steps),
            last=max(steps),
        )
        if steps
        else ""
    )
    head = _(
        "Line chart: {title} {panels} panels, each showing every line's {y_label}{span}.",
        title=_sentence(chart.title),
        panels=len(chart.panels),
        y_label=_(chart.y_label),
        span=span,
    )
    return " ".join([head, *(_panel_text(panel, width) for panel in chart.panels)])


def _panel_text(panel: LinePanel, width: int | None) -> str:
    lines = [
        _(
            "{name} from {first} to {last}",
            name=shorten(series.name, width),
            first=line_value(series.values[0]),
            last=line_value(series.values[-1]),
        )
        for series in panel.series
        if series.values
    ]
    return f"{panel.title}: " + ", ".join(lines) + "."


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else f"{text}."
