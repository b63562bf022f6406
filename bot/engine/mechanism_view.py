"""The mechanism step: a toy policy trained on this run's own thumbs-up votes and checker."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.mechanism import probability_table, runs_text, sparkline_rows, thumbs_up_shares, train_all
from bot.mechanism.chart import training_chart
from bot.mechanism.naive import naive_reward
from bot.mechanism.training import TrainingRun, TrainingRuns
from bot.model.records import RunRecord, VoteCount
from bot.model.views import LineChart, Section
from bot.verifier.verdict import Verdict
from lessons.schema import VerifierStep


def thumbs_up_counts(step: VerifierStep, counts: Sequence[VoteCount]) -> dict[str, int]:
    """How many thumbs-ups each answer style got in this run."""
    ups = {(c.kind, c.value): c.count for c in counts}
    return {a.style: ups.get((f"rate:{a.id}", "up"), 0) for a in step.attempts}


async def train_on_run(
    run: RunRecord, step: VerifierStep, counts: Sequence[VoteCount], verdicts: dict[str, Verdict]
) -> TrainingRuns:
    """Train the three toy runs on this run's votes, off the event loop."""
    shares = thumbs_up_shares(thumbs_up_counts(step, counts))
    checker = {a.style: float(verdicts[a.id].reward) for a in step.attempts}
    naive = {a.style: naive_reward(a.text, step.gold) for a in step.attempts}
    return await asyncio.to_thread(train_all, shares, checker, naive, run.id)


def mechanism_sections(runs: TrainingRuns) -> tuple[tuple[Section, ...], LineChart]:
    """What each toy learned, its probabilities over training as text, and the chart."""
    story = Section("What the toy learned", "\n\n".join(runs_text(runs)))
    tables = [Section(f"{run.name} reward over {run.steps} steps", _monospace(run)) for run in runs]
    return (story, *tables), training_chart(runs)


def _monospace(run: TrainingRun) -> str:
    lines = [*probability_table(run, every=100), "", *sparkline_rows(run)]
    return "```\n" + "\n".join(lines) + "\n```"
