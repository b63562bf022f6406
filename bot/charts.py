"""PNG charts of the engine's chart data (matplotlib, Agg backend, no screen needed).

Every chart is 8 × 4.5 inches: 1200 × 675 pixels, drawn to stay readable when a chat
shows it at about 800 × 450. No chart relies on colour alone: marks (✓, ↻) name the bars
that matter, a second series of bars is hatched, each line has its own dashes and markers,
and every colour stands out from the white background (contrast of 3:1 or more).

matplotlib is loaded with the first chart: a process that draws none (a health check, a
bot sending recall checks) never pays for it.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from bot.i18n import _
from bot.model.chart_text import describe_chart, line_value
from bot.model.views import AnyChart, Chart, LineChart, LinePanel, Series

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SIZE_INCHES = (8.0, 4.5)
DPI = 150
COLOURS = ("#5865F2", "#B35900", "#1E7F4F", "#C2185B")
UNMARKED_COLOUR = "#848EA0"
MARK_COLOURS = {"✓": "#157A4A", "↻": "#1A73B8"}
OTHER_MARK_COLOUR = "#5865F2"
INK = "#1F2329"
LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D")
HATCHES = ("", "///", "..", "xx")
LABEL_WIDTH = 30
TITLE_WIDTH = 80
INSIDE_FROM = 72.0
END_LABEL_GAP = 0.055
Y_TOP = 1.02
INSIDE_PATCH = {"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none"}


def chart_png(chart: AnyChart) -> bytes:
    """Draw a bar chart or a line chart; PNG bytes with the chart's description as metadata."""
    if isinstance(chart, LineChart):
        return line_chart_png(chart)
    return bar_chart_png(chart)


def bar_chart_png(chart: Chart) -> bytes:
    """Horizontal bars of percentages as PNG bytes, described in the PNG's text."""
    return _png(bar_chart_figure(chart), describe_chart(chart))


def bar_chart_figure(chart: Chart) -> Figure:
    """Horizontal bars of percentages, wrapped labels, marked bars in their mark's colour."""
    figure = _figure()
    axes = figure.subplots()
    _draw_bars(axes, chart)
    _tidy(axes, grid_axis="x")
    _label_rows(axes, chart)
    axes.set_xlim(0, 100)
    from matplotlib.ticker import PercentFormatter

    axes.xaxis.set_major_formatter(PercentFormatter(100))
    axes.set_xlabel(_(chart.value_label), fontsize=9, color=INK)
    figure.suptitle(_wrap(chart.title, TITLE_WIDTH), fontsize=11, color=INK)
    if len(chart.series) > 1:
        figure.legend(loc="outside lower center", ncols=len(chart.series), frameon=False)
    if chart.caption:
        axes.set_title(chart.caption, loc="left", fontsize=9, color=_caption_colour(chart))
    return figure


def line_chart_png(chart: LineChart) -> bytes:
    """Panels of lines side by side as PNG bytes, described in the PNG's text."""
    return _png(line_chart_figure(chart), describe_chart(chart))


def line_chart_figure(chart: LineChart) -> Figure:
    """Panels side by side, each with its own axis labels and a label at each line's end."""
    figure = _figure()
    panels = figure.subplots(1, len(chart.panels), squeeze=False)[0]
    for axes, panel in zip(panels, chart.panels, strict=True):
        _draw_lines(axes, panel)
        axes.set_xlabel(_(chart.x_label), fontsize=8)
        axes.set_ylabel(_(chart.y_label), fontsize=8)
    figure.suptitle(_wrap(chart.title, TITLE_WIDTH + 20), fontsize=10, color=INK)
    return figure


def bar_colour(chart: Chart, index: int, series_index: int) -> str:
    """One bar's colour: its series' when there are several, else its mark's, else grey or blue.

    With one series, a marked bar takes its mark's colour and the others go grey; a chart with
    no marks keeps the series' colour.
    """
    series = chart.series[series_index]
    own = series.colour or COLOURS[series_index % len(COLOURS)]
    mark = chart.mark_of(index)
    if len(chart.series) > 1:
        return own
    if mark:
        return MARK_COLOURS.get(mark, OTHER_MARK_COLOUR)
    return UNMARKED_COLOUR if any(chart.marks) else own


def spread(values: Sequence[float], gap: float) -> list[float]:
    """Label positions near `values`, moved apart so that neighbours are at least `gap` apart."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    placed: dict[int, float] = {}
    floor = float("-inf")
    for i in order:
        placed[i] = max(values[i], floor + gap)
        floor = placed[i]
    overflow = max(0.0, floor - 1.0)
    return [placed[i] - overflow for i in range(len(values))]


def _figure() -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _png(figure: Figure, description: str) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Description": description})
    return buffer.getvalue()


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _tidy(axes: Axes, grid_axis: Literal["x", "y", "both"]) -> None:
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.grid(axis=grid_axis, alpha=0.3)
    axes.set_axisbelow(True)
    axes.tick_params(labelsize=8, colors=INK)


def _draw_bars(axes: Axes, chart: Chart) -> None:
    """Bars per series; beside the colour, a second series is hatched and every end is labelled."""
    height = 0.7 / max(1, len(chart.series))
    fontsize = 9 if len(chart.series) == 1 else 8
    for series_index, series in enumerate(chart.series):
        rows = [i - 0.35 + height * (series_index + 0.5) for i in range(len(chart.labels))]
        colours = [bar_colour(chart, i, series_index) for i in range(len(chart.labels))]
        axes.barh(rows, series.values, height, color=colours, label=series.name,
                  hatch=HATCHES[series_index % len(HATCHES)], edgecolor="white", linewidth=0)
        _end_labels(axes, rows, series, fontsize)
    axes.invert_yaxis()


def _end_labels(axes: Axes, rows: list[float], series: Series, fontsize: int) -> None:
    """Each bar's end text in dark ink: on a white patch inside a long bar, else after it."""
    for row, value, text in zip(rows, series.values, series.ends, strict=False):
        inside = value >= INSIDE_FROM
        x = value - 1.5 if inside else value + 1.5
        patch = INSIDE_PATCH if inside else None
        axes.text(x, row, text, va="center", ha="right" if inside else "left", fontsize=fontsize,
                  color=INK, fontweight="bold", bbox=patch)


def _label_rows(axes: Axes, chart: Chart) -> None:
    axes.set_yticks(range(len(chart.labels)))
    axes.set_yticklabels([_row_label(chart, i) for i in range(len(chart.labels))], fontsize=9)
    for index, tick in enumerate(axes.get_yticklabels()):
        if chart.mark_of(index):
            tick.set_color(MARK_COLOURS.get(chart.mark_of(index), OTHER_MARK_COLOUR))
            tick.set_fontweight("bold")


def _caption_colour(chart: Chart) -> str:
    kinds = {mark for mark in chart.marks if mark}
    return MARK_COLOURS.get(kinds.pop(), INK) if len(kinds) == 1 else INK


def _row_label(chart: Chart, index: int) -> str:
    label = _wrap(chart.labels[index], LABEL_WIDTH)
    mark = chart.mark_of(index)
    return f"{mark} {label}" if mark else label


def _draw_lines(axes: Axes, panel: LinePanel) -> None:
    for index, series in enumerate(panel.series):
        axes.plot(panel.x, series.values, label=series.name, color=_line_colour(series, index),
                  linestyle=LINE_STYLES[index % len(LINE_STYLES)], linewidth=1.8,
                  marker=MARKERS[index % len(MARKERS)], markersize=3.5,
                  markevery=_marker_spacing(len(panel.x), index), alpha=0.9)
    _line_end_labels(axes, panel)
    axes.set_title(_wrap(panel.title, 32), fontsize=9, color=INK)
    axes.set_ylim(0, Y_TOP)
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.xaxis.set_major_locator(MaxNLocator(nbins=3, integer=True))
    _tidy(axes, grid_axis="both")


def _marker_spacing(points: int, index: int) -> tuple[int, int]:
    every = max(len(MARKERS), points // 6)
    return (index * every // len(MARKERS), every)


def _line_colour(series: Series, index: int) -> str:
    return series.colour or COLOURS[index % len(COLOURS)]


def end_label_texts(panel: LinePanel) -> list[str]:
    """The label at each line's end: its name and its last value, e.g. 'careful 97%'."""
    return [f"{series.name} {line_value(series.values[-1])}" for series in panel.series]


def _line_end_labels(axes: Axes, panel: LinePanel) -> None:
    finals = [series.values[-1] / Y_TOP for series in panel.series]
    positions = spread(finals, END_LABEL_GAP)
    texts = end_label_texts(panel)
    for index, (series, y) in enumerate(zip(panel.series, positions, strict=True)):
        axes.annotate(texts[index], xy=(1.0, y),
                      xycoords="axes fraction", xytext=(4, 0), textcoords="offset points",
                      va="center", fontsize=7, color=_line_colour(series, index),
                      fontweight="bold")
