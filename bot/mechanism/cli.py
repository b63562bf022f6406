"""Terminal entry point: train the three toy runs on thumbs-up counts and print the report."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.mechanism.chart import training_chart_png
from bot.mechanism.report import report_lines
from bot.mechanism.training import TrainingRuns, train_all
from bot.mechanism.votes import VotesError, parse_votes, thumbs_up_shares

DEFAULT_CHECKER_REWARDS: dict[str, float] = {"careful": 1.0}
DEFAULT_NAIVE_REWARDS: dict[str, float] = {"careful": 1.0, "hedging": 1.0}
BAD_INPUT = 2
MAX_STEPS = 10_000
COMMAND_LINE_VOTES = "votes typed on the command line"


def mechanism_command(
    votes: str, seed: int = 0, steps: int = 300, chart_path: str | None = None
) -> int:
    """Print the three runs trained on thumbs-up counts; return 0, or 2 on bad input."""
    if not 1 <= steps <= MAX_STEPS:
        return _fail(f"steps must be between 1 and {MAX_STEPS}, got {steps}")
    if chart_path and not Path(chart_path).parent.is_dir():
        return _fail(f"cannot write the chart to {chart_path}: no such directory")
    try:
        counts = parse_votes(votes)
    except VotesError as error:
        return _fail(str(error))
    runs = train_all(
        thumbs_up_shares(counts), DEFAULT_CHECKER_REWARDS, DEFAULT_NAIVE_REWARDS, seed, steps
    )
    print("\n".join(report_lines(runs)))
    return _write_chart(runs, chart_path) if chart_path else 0


def _write_chart(runs: TrainingRuns, chart_path: str) -> int:
    try:
        Path(chart_path).write_bytes(training_chart_png(runs, COMMAND_LINE_VOTES))
    except OSError as error:
        return _fail(f"cannot write the chart to {chart_path}: {error.strerror or error}")
    print(f"Chart written to {chart_path}")
    return 0


def _fail(message: str) -> int:
    print(f"mechanism: {message}", file=sys.stderr)
    return BAD_INPUT
