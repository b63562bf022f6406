"""The full text report of the three runs: outcomes, rewards, assumptions, then each run's table."""

from __future__ import annotations

from collections.abc import Sequence

from bot.mechanism.story import assumptions_line, reward_lines, runs_text
from bot.mechanism.table import probability_table, sparkline_rows
from bot.mechanism.training import TrainingRuns


def report_lines(runs: TrainingRuns, assumed: Sequence[str] = (), every: int = 50) -> list[str]:
    """Outcomes, rewards and assumptions, then per run a probability table and sparklines."""
    lines = [*runs_text(runs), "", *reward_lines(runs), assumptions_line(runs, assumed)]
    for run in runs:
        lines += ["", f"{run.name.capitalize()} reward: probabilities over {run.steps} GRPO steps"]
        lines += probability_table(run, every)
        lines += sparkline_rows(run)
    return lines
