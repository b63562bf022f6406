"""The training runs as a line chart: each attempt's probability over steps, one panel per run."""

from __future__ import annotations

from bot.i18n import _
from bot.mechanism.training import TrainingRun, TrainingRuns
from bot.model.views import LineChart, LinePanel, Series

ATTEMPT_COLOURS = ("#E01E5A", "#A15C00", "#5865F2", "#1E7F4F", "#7F4FC9")
"""Each attempt's line colour, dark enough to read its end label on white."""


def training_chart(runs: TrainingRuns) -> LineChart:
    """The three runs as chart data; the title says where the votes came from."""
    title = _(
        "Toy softmax policy over the lesson's attempts, trained on {votes_from}. "
        "Not a real language model.",
        votes_from=_(runs.votes_from),
    )
    panels = tuple(_panel(run) for run in runs)
    return LineChart(
        title, panels, x_label=_("training step"), y_label=_(LineChart.y_label)
    )


def training_chart_png(runs: TrainingRuns) -> bytes:
    """Draw the three runs side by side and return the PNG bytes."""
    from bot.charts import line_chart_png

    return line_chart_png(training_chart(runs))


def _panel(run: TrainingRun) -> LinePanel:
    steps = tuple(step for step, _ in run.history)
    series = tuple(
        Series(label, tuple(probs[index] for _, probs in run.history), _colour(index))
        for index, label in enumerate(run.labels)
    )
    return LinePanel(_("Reward: {name}", name=_(run.name)), steps, series)


def _colour(index: int) -> str:
    return ATTEMPT_COLOURS[index % len(ATTEMPT_COLOURS)]
