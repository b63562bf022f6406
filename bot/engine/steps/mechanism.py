"""A mechanism step: a toy policy trained with GRPO on this run's votes at a verifier step."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.engine.steps.base import CardExtras, KindOfStep, RunData
from bot.engine.steps.verifier import Verifier
from bot.i18n import _
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
from lessons.schema import MechanismStep, VerifierStep


class Mechanism(KindOfStep[MechanismStep]):
    """Its card gains what the toy learned from the channel's ratings, and the training chart.

    How each run was rewarded, with the toy's assumptions, waits behind More.
    """

    step_class = MechanismStep

    @property
    def has_more(self) -> bool:
        """Always: how the toy was trained."""
        return True

    async def card_extras(self, data: RunData, run: RunRecord) -> CardExtras:
        """The toy trained on the source verifier step's table in this run."""
        return mechanism_sections(await self._trained(data, run))

    async def more(self, data: RunData, run: RunRecord) -> str:
        """How each run was rewarded and what the toy assumed, then the step's own detail."""
        how = training_text(await self._trained(data, run))
        return "\n\n".join([how, *([self.step.more] if self.step.more else [])])

    async def _trained(self, data: RunData, run: RunRecord) -> TrainingRuns:
        source = data.lesson_of(run).step_by_id(self.step.source)
        assert isinstance(source, VerifierStep)
        rows = await Verifier(source).table(data, run)
        return await train_on_run(run, source, rows)


async def train_on_run(
    run: RunRecord, step: VerifierStep, rows: Sequence[VerifierRow]
) -> TrainingRuns:
    """Train the three toy runs on the verifier table this run produced, off the event loop."""
    settings = TrainingSettings(seed=run.id)
    return await asyncio.to_thread(train_all, toy_attempts(step, rows), settings)


def mechanism_sections(runs: TrainingRuns) -> tuple[tuple[Section, ...], LineChart]:
    """What each toy learned, and the chart."""
    learned = Section(_("What the toy learned"), "\n\n".join(runs_text(runs)))
    return (learned,), training_chart(runs)


def training_text(runs: TrainingRuns) -> str:
    """How each run was rewarded, with the toy's assumptions."""
    heading = _("How it was trained")
    return "\n".join([f"**{heading}**", *reward_lines(runs), assumptions_line(runs)])
