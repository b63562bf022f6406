"""PNG charts of the engine's chart data (matplotlib, Agg backend, no screen needed)."""

from __future__ import annotations

import io

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from bot.model.views import AnyChart, Chart, LineChart, LinePanel

COLOURS = ("#5865F2", "#2EB67D", "#ECB22E", "#E01E5A")


def chart_png(chart: AnyChart) -> bytes:
    """Draw a bar chart or a line chart and return the PNG bytes."""
    if isinstance(chart, LineChart):
        return line_chart_png(chart)
    return bar_chart_png(chart)


def bar_chart_png(chart: Chart) -> bytes:
    """A grouped bar chart, one group per label and one bar per series."""
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    _draw_bars(axes, chart)
    axes.set_title(chart.title, fontsize=12)
    axes.set_ylabel(chart.y_label)
    axes.set_ylim(0, 1.05)
    if len(chart.series) > 1:
        axes.legend(loc="upper right")
    return _png(figure)


def line_chart_png(chart: LineChart) -> bytes:
    """Panels of lines side by side, sharing the y axis."""
    figure = Figure(figsize=(4 * max(1, len(chart.panels)), 4), dpi=100)
    FigureCanvasAgg(figure)
    panels = figure.subplots(1, len(chart.panels), sharey=True, squeeze=False)[0]
    for axes, panel in zip(panels, chart.panels, strict=True):
        _draw_lines(axes, panel, chart.x_label)
    panels[0].set_ylabel(chart.y_label)
    panels[0].legend(loc="center right", fontsize=8)
    figure.suptitle(chart.title, fontsize=10)
    return _png(figure)


def _png(figure: Figure) -> bytes:
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _draw_bars(axes: Axes, chart: Chart) -> None:
    width = 0.8 / max(1, len(chart.series))
    positions = range(len(chart.labels))
    for index, series in enumerate(chart.series):
        offsets = [p - 0.4 + width * (index + 0.5) for p in positions]
        colour = series.colour or COLOURS[index % len(COLOURS)]
        axes.bar(offsets, series.values, width, label=series.name, color=colour)
    axes.set_xticks(list(positions))
    axes.set_xticklabels([_short(label) for label in chart.labels], fontsize=9)


def _draw_lines(axes: Axes, panel: LinePanel, x_label: str) -> None:
    for index, series in enumerate(panel.series):
        colour = series.colour or COLOURS[index % len(COLOURS)]
        axes.plot(panel.x, series.values, label=series.name, color=colour, linewidth=2)
    axes.set_title(panel.title, fontsize=11)
    axes.set_xlabel(x_label)
    axes.set_ylim(0, 1.02)
    axes.grid(alpha=0.3)


def _short(label: str, limit: int = 22) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"
