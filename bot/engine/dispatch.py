"""Button clicks read from their address, and timers that move runs on by themselves."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.addresses import Action, Address
from bot.engine.cards import more_receipt, takes_answers
from bot.engine.core import RunCore
from bot.engine.host_actions import HostActions
from bot.engine.member_actions import MemberActions
from bot.model.errors import LessonBotError, NotRevealedYet
from bot.model.records import Member, Phase, Place, RunRecord, RunState
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


class Dispatch:
    """Routes a click to the member or host operation it stands for; fires due timers."""

    def __init__(self, core: RunCore, members: MemberActions, hosts: HostActions) -> None:
        self.core = core
        self.members = members
        self.hosts = hosts

    async def click(
        self, address: Address, member: Member, place: Place | None = None
    ) -> ClickResult:
        """Handle any button of this bot, read from its address, clicked in `place`."""
        if place is not None:
            await self.core.require_place(address.run_id, place)
        run_id, step_id, arg = address.run_id, address.step_id, address.arg
        match address.action:
            case Action.CHOOSE:
                return ClickResult(await self.members.choose(run_id, step_id, member, arg))
            case Action.UP | Action.DOWN:
                up = address.action is Action.UP
                return ClickResult(await self.members.rate(run_id, step_id, member, arg, up))
            case Action.CHECK:
                return ClickResult(await self.members.run_checker(run_id, step_id, member, arg))
            case Action.ANSWER:
                await self.core.open_step(run_id, step_id)
                return ClickResult(opens_form=True)
            case Action.REVEAL:
                return ClickResult(reveal=await self.hosts.reveal(run_id, member, step_id))
            case Action.NEXT:
                return ClickResult(advance=await self.hosts.advance(run_id, member, step_id))
            case Action.MORE:
                return ClickResult(await self.more(run_id, step_id))

    async def more(self, run_id: int, step_id: str) -> Receipt:
        """A step's longer detail; a question's only once its answers are revealed."""
        step = await self.core.known_step(run_id, step_id)
        if takes_answers(step) and step.more and not await self.core.revealed(run_id, step):
            raise NotRevealedYet()
        return more_receipt(run_id, step)

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
            if takes_answers(step) and run.position.phase is Phase.OPEN:
                return TimerFired(run, reveal=await self.hosts.reveal(run.id, timer_host, step.id))
            return TimerFired(run, advance=await self.hosts.advance(run.id, timer_host, step.id))
        except LessonBotError:  # another process moved it first, or the run ended
            return None
