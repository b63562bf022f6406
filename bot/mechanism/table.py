"""Monospace renderings of the attempts' probabilities over training: a table and sparklines."""

from __future__ import annotations

from bot.mechanism.training import TrainingRun

SPARK_LEVELS = "▁▂▃▄▅▆▇█"
COLUMN_GAP = 2


def probability_table(run: TrainingRun, every: int = 50) -> list[str]:
    """Rows of 'step | probability per attempt' every ``every`` steps (plus the last step)."""
    if every < 1:
        raise ValueError("every must be >= 1")
    width = max(len(label) for label in run.labels) + COLUMN_GAP
    rows = ["step".rjust(5) + "".join(label.rjust(width) for label in run.labels)]
    for step, probs in run.history:
        if step % every == 0 or step == run.steps:
            rows.append(str(step).rjust(5) + "".join(f"{prob:.0%}".rjust(width) for prob in probs))
    return rows


def sparkline_rows(run: TrainingRun) -> list[str]:
    """One row per attempt: its probability at each recorded step as block characters (0→1)."""
    width = max(len(label) for label in run.labels)
    rows = []
    for index, label in enumerate(run.labels):
        series = [probs[index] for _, probs in run.history]
        rows.append(f"{label.ljust(width)} {_sparkline(series)} {series[-1]:.0%}")
    return rows


def _sparkline(series: list[float]) -> str:
    top = len(SPARK_LEVELS) - 1
    return "".join(SPARK_LEVELS[min(top, int(value * top + 0.5))] for value in series)
