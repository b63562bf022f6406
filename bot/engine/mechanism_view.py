"""The mechanism step: a toy policy over the lesson's attempts, trained on this run's votes."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.mechanism import (
    TrainingRuns,
    TrainingSettings,
    assumptions_line,
    reward_lines,
    runs_text,
    toy_attempts,
    train_all,
)
from bot.mechanism.chart import training_chart
from bot.model.records import RunRecord
from bot.model.views import LineChart, Section, VerifierRow
from lessons.schema import VerifierStep


async def train_on_run(
    run: RunRecord, step: VerifierStep, rows: Sequence[VerifierRow]
) -> TrainingRuns:
    """Train the three toy runs on the verifier table this run produced, off the event loop."""
    settings = TrainingSettings(seed=run.id)
    return await asyncio.to_thread(train_all, toy_attempts(step, rows), settings)


def mechanism_sections(runs: TrainingRuns) -> tuple[tuple[Section, ...], LineChart]:
    """What each toy learned, how each run was rewarded with its assumptions, and the chart."""
    learned = Section("What the toy learned", "\n\n".join(runs_text(runs)))
    how = Section("How it was trained", "\n".join([*reward_lines(runs), assumptions_line(runs)]))
    return (learned, how), training_chart(runs)
