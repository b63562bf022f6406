"""The full text report of the three runs: outcomes first, then each run's table."""

from __future__ import annotations

from bot.mechanism.story import runs_text
from bot.mechanism.table import probability_table, sparkline_rows
from bot.mechanism.training import TrainingRuns

STYLE_NOTE = "Styles: flattering, long-wrong, hedging, careful (the four sample attempts)."


def report_lines(runs: TrainingRuns, every: int = 50) -> list[str]:
    """Outcome lines, then per run a title, a probability table and sparkline rows."""
    lines = [*runs_text(runs), STYLE_NOTE]
    for run in runs:
        lines += ["", f"{run.name} reward: style probabilities over {run.steps} GRPO steps"]
        lines += probability_table(run, every)
        lines += sparkline_rows(run)
    return lines
