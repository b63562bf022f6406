"""The lesson engine: every operation adapters call, plus button dispatch and timers."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.addresses import Action, Address
from bot.engine.cards import takes_answers
from bot.engine.core import require_host
from bot.engine.host_actions import HostActions
from bot.engine.member_data import EXPORT_ACTION, MemberData
from bot.model.errors import LessonBotError
from bot.model.records import Member, Phase, Place, RunRecord
from bot.model.views import Advance, Receipt, RevealCard, StepCard


@dataclass(frozen=True)
class ClickResult:
    """What a button click produced: a private receipt, a reveal, or a move to the next step."""

    receipt: Receipt | None = None
    reveal: tuple[StepCard, RevealCard] | None = None
    advance: Advance | None = None
    opens_form: bool = False


@dataclass(frozen=True)
class TimerFired:
    """A timed run that moved on by itself."""

    run: RunRecord
    reveal: tuple[StepCard, RevealCard] | None = None
    advance: Advance | None = None


class LessonEngine(HostActions, MemberData):
    """All lesson operations, free of any platform or database code."""

    async def click(
        self, address: Address, member: Member, place: Place | None = None
    ) -> ClickResult:
        """Handle any button of this bot, read from its address, clicked in `place`."""
        if place is not None:
            await self.require_place(address.run_id, place)
        run_id, step_id, arg = address.run_id, address.step_id, address.arg
        match address.action:
            case Action.CHOOSE:
                return ClickResult(await self.choose(run_id, step_id, member, arg))
            case Action.UP | Action.DOWN:
                up = address.action is Action.UP
                return ClickResult(await self.rate(run_id, step_id, member, arg, up))
            case Action.CHECK:
                return ClickResult(await self.run_checker(run_id, step_id, member, arg))
            case Action.ANSWER:
                await self.open_step(run_id, step_id)
                return ClickResult(opens_form=True)
            case Action.REVEAL:
                return ClickResult(reveal=await self.reveal(run_id, member, step_id))
            case Action.NEXT:
                return ClickResult(advance=await self.advance(run_id, member, step_id))

    async def export_here(
        self, place: Place, host: Member, run_id: int | None = None
    ) -> tuple[int, str]:
        """A run's answers as CSV for a host: the named run, else the channel's current or last."""
        require_host(host, EXPORT_ACTION)
        chosen = run_id if run_id is not None else (await self.run_here(place)).id
        return chosen, await self.export_run(chosen, host, place)

    async def fire_due_timers(self, platform: str | None = None) -> list[TimerFired]:
        """Reveal or advance every timed run whose deadline has passed (once, across processes).

        An adapter passes its platform, so it only moves runs it can show.
        """
        fired = []
        for run in await self.store.due_runs(self.clock(), platform):
            event = await self._fire(run)
            if event is not None:
                fired.append(event)
        return fired

    async def _fire(self, run: RunRecord) -> TimerFired | None:
        timer_host = Member(run.host_id, is_host=True)
        step = self.current_step(run)
        try:
            if takes_answers(step) and run.position.phase is Phase.OPEN:
                return TimerFired(run, reveal=await self.reveal(run.id, timer_host, step.id))
            return TimerFired(run, advance=await self.advance(run.id, timer_host, step.id))
        except LessonBotError:  # another process moved it first, or the run ended
            return None
