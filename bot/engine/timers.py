"""Timers that move runs on by themselves: reveal an open question, or go to the next step."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import takes_answers
from bot.engine.core import RunCore
from bot.engine.host_actions import Closing, HostActions
from bot.model.errors import LessonBotError
from bot.model.records import Member, Phase, RunRecord, RunState
from bot.model.views import Advance


@dataclass(frozen=True)
class TimerFired:
    """A timed run that moved on by itself."""

    run: RunRecord
    reveal: Closing | None = None
    advance: Advance | None = None


class RunTimers:
    """Fires a timed run whose deadline has passed, as the timer's host."""

    def __init__(self, core: RunCore, hosts: HostActions) -> None:
        self.core = core
        self.hosts = hosts

    async def fire_timer(self, run_id: int) -> TimerFired | None:
        """Reveal or advance one run if its deadline has passed, as it is stored now."""
        run = await self.core.run(run_id)
        now = self.core.clock()
        if run is None or run.state is not RunState.ACTIVE:
            return None
        if run.deadline is None or run.deadline > now:
            return None
        return await self._fire(run)

    async def _fire(self, run: RunRecord) -> TimerFired | None:
        timer_host = Member(run.host_id, is_host=True)
        step = self.core.current_step(run)
        try:
            if takes_answers(step) and run.position.phase is not Phase.REVEALED:
                return TimerFired(run, reveal=await self.hosts.reveal(run.id, timer_host, step.id))
            return TimerFired(run, advance=await self.hosts.advance(run.id, timer_host, step.id))
        except LessonBotError:  # another process moved it first, or the run ended
            return None
