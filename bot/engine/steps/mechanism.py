"""A mechanism step: a toy policy trained with GRPO on this run's votes at a verifier step."""

from __future__ import annotations

from bot.engine.mechanism_view import mechanism_sections, train_on_run
from bot.engine.steps.base import CardExtras, KindOfStep, RunData
from bot.engine.steps.verifier import Verifier
from bot.model.records import RunRecord
from lessons.schema import MechanismStep, VerifierStep


class Mechanism(KindOfStep[MechanismStep]):
    """Its card gains what the toy learned from the channel's ratings, and the training chart."""

    step_class = MechanismStep

    async def card_extras(self, data: RunData, run: RunRecord) -> CardExtras:
        """The toy trained on the source verifier step's table in this run."""
        source = data.lesson_of(run).step_by_id(self.step.source)
        assert isinstance(source, VerifierStep)
        rows = await Verifier(source).table(data, run)
        return mechanism_sections(await train_on_run(run, source, rows))
