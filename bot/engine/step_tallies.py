"""A step's aggregates: counted live while it is open, frozen at its reveal."""

from __future__ import annotations

from bot.engine.ports import TallyStorage
from bot.engine.steps import kind_of
from bot.model.records import RunRecord, StepTally
from lessons.schema import Step


class StepTallies:
    """Counts of what a run's members answered, read from storage."""

    def __init__(self, tallies: TallyStorage) -> None:
        self.tallies = tallies

    async def step_tally(self, run: RunRecord, step: Step) -> StepTally:
        """A step's aggregates: frozen at its reveal, or live while it is open."""
        saved = await self.tallies.find_tally(run.id, step.id)
        return saved if saved is not None else await self.live_tally(run.id, step)

    async def live_tally(self, run_id: int, step: Step) -> StepTally:
        """A step's aggregates as they stand in the database now."""
        return await kind_of(step).count(self.tallies, run_id)

    async def freeze(self, run_id: int, step: Step) -> None:
        """Keep a step's aggregates as they are now, so its reveal never changes."""
        await self.tallies.save_tally(run_id, step.id, await self.live_tally(run_id, step))

    async def participants(self, run_id: int, step_id: str) -> int:
        """Distinct members who did anything at a step."""
        return await self.tallies.count_participants(run_id, step_id)

    async def run_members(self, run_id: int) -> int:
        """Distinct members who took part anywhere in a run."""
        return await self.tallies.count_run_members(run_id)
