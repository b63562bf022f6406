"""The training runs as a line chart: style probabilities over steps, one panel per run."""

from __future__ import annotations

from bot.mechanism.training import TrainingRun, TrainingRuns
from bot.model.views import LineChart, LinePanel, Series

STYLE_COLOURS: dict[str, str] = {
    "flattering": "#E01E5A",
    "long-wrong": "#ECB22E",
    "hedging": "#5865F2",
    "careful": "#2EB67D",
}
CHANNEL_VOTES = "this channel's votes"
CHART_NOTE = "Toy softmax policy over answer styles, trained on {votes}. Not a real language model."


def training_chart(runs: TrainingRuns, votes: str = CHANNEL_VOTES) -> LineChart:
    """The three runs as chart data any adapter can draw; `votes` says where the votes came from."""
    title = CHART_NOTE.format(votes=votes)
    return LineChart(title, tuple(_panel(run) for run in runs), x_label="training step")


def training_chart_png(runs: TrainingRuns, votes: str = CHANNEL_VOTES) -> bytes:
    """Draw the three runs side by side and return the PNG bytes."""
    from bot.charts import line_chart_png

    return line_chart_png(training_chart(runs, votes))


def _panel(run: TrainingRun) -> LinePanel:
    steps = tuple(step for step, _ in run.history)
    series = tuple(
        Series(style, tuple(probs[index] for _, probs in run.history), STYLE_COLOURS.get(style, ""))
        for index, style in enumerate(run.styles)
    )
    return LinePanel(f"{run.name} reward → {run.preferred_style}", steps, series)
