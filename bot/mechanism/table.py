"""Monospace renderings of style probabilities over training: a table and sparkline rows."""

from __future__ import annotations

from bot.mechanism.styles import TOY_DISCLAIMER
from bot.mechanism.training import TrainingRun

SPARK_LEVELS = "▁▂▃▄▅▆▇█"
COLUMN_WIDTH = 11


def probability_table(run: TrainingRun, every: int = 50) -> list[str]:
    """Rows of 'step | probability per style' every ``every`` steps (plus the last step)."""
    if every < 1:
        raise ValueError("every must be >= 1")
    header = "step".rjust(5) + "".join(style.rjust(COLUMN_WIDTH) for style in run.styles)
    rows = [header]
    for step, probs in run.history:
        if step % every == 0 or step == run.steps:
            cells = "".join(f"{prob:.0%}".rjust(COLUMN_WIDTH) for prob in probs)
            rows.append(str(step).rjust(5) + cells)
    return rows


def sparkline_rows(run: TrainingRun) -> list[str]:
    """One row per style: its probability at each recorded step as block characters (0→1)."""
    width = max(len(style) for style in run.styles)
    rows = []
    for index, style in enumerate(run.styles):
        series = [probs[index] for _, probs in run.history]
        rows.append(f"{style.ljust(width)} {_sparkline(series)} {series[-1]:.0%}")
    return rows


def table_text(run: TrainingRun, every: int = 50) -> list[str]:
    """Run title, probability table and sparklines, with the toy disclaimer."""
    title = f"{run.name} reward: style probabilities over {run.steps} GRPO steps"
    return [title, *probability_table(run, every), "", *sparkline_rows(run), TOY_DISCLAIMER]


def _sparkline(series: list[float]) -> str:
    top = len(SPARK_LEVELS) - 1
    return "".join(SPARK_LEVELS[min(top, int(value * top + 0.5))] for value in series)
