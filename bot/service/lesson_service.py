"""One interaction path for every front end: claimed once, decided by the engine, answered.

A platform turns its event into an `Actor` and calls `LessonService.click`, `.answer` or
`.command`. The delivery is claimed once across processes, the engine stores what changed,
and a typed refusal becomes the member's private reply. The returned `Outcome` says what to
tell the member and what to show in the channel; the platform decides when (before or after
its acknowledgement) and how.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.engine import (
    HOST_ACTIONS,
    Action,
    Address,
    Answered,
    CheckAnswered,
    FormOpened,
    LessonEngine,
    MovedOn,
    OwnStep,
    OwnStepReached,
    Revealed,
    parse_address,
)
from bot.i18n import SOURCE_LANGUAGE
from bot.model import BadAddress, LessonBotError, Member, Receipt, RunRecord
from bot.service.assignments import TEND_EVERY, so_far_text
from bot.service.commands import CommandArgs, Verbs, moved_text, parse_command, revealed_text
from bot.service.effects import (
    AlreadyHandled,
    AnswerReceipt,
    CheckMovedOn,
    Effect,
    FormToOpen,
    OwnStepAnswered,
    ReasonHidden,
    Refusal,
)
from bot.service.posting import each_in_turn
from bot.service.presenter import Presenter
from bot.service.recalls import DEFAULT_PACE, Recalls, check_card
from bot.service.surface import (
    Actor,
    Delivery,
    Outcome,
    PlatformUnavailable,
    confirmed,
    nothing,
)

log = logging.getLogger(__name__)

MAX_REMEMBERED = 50_000
ClickHandler = Callable[[Address, Member, Any], Awaitable[Outcome]]
"""Makes an outcome of one kind of click result, for the member who clicked."""
TIMER_PATIENCE = 2.0
"""Seconds a due timer waits for its run's turn; a run still posting then fires next round."""

class Deliveries:
    """Whether a platform delivery is the first: remembered here, then claimed everywhere."""

    def __init__(self, engine: LessonEngine, limit: int = MAX_REMEMBERED) -> None:
        self.engine = engine
        self.limit = limit
        self._seen: OrderedDict[str, None] = OrderedDict()

    def repeated_here(self, key: str) -> bool:
        """Whether this process already received the delivery (no database needed)."""
        if key in self._seen:
            log.info("ignored a repeated delivery of %s", key.split(":", 1)[0])
            return True
        self._seen[key] = None
        if len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return False

    async def claim(self, platform: str, key: str) -> bool:
        """Claim the delivery for this process; False if any process claimed it first."""
        first = await self.engine.first_delivery(platform, key)
        if not first:
            log.info("ignored a repeated delivery of %s (claimed)", key.split(":", 1)[0])
        return first


class LessonService:
    """The shared entry point of every front end."""

    def __init__(
        self,
        engine: LessonEngine,
        presenter: Presenter,
        help_note: str = "",
        reveal_waits: bool = True,
        recall_pace: int = DEFAULT_PACE,
        lesson_language: str = SOURCE_LANGUAGE,
        tend_every: timedelta = TEND_EVERY,
    ) -> None:
        """The service on `engine`, showing through `presenter`.

        `reveal_waits` is False where each question is revealed as soon as it is answered;
        `recall_pace`: recall checks sent per tick of the timer loop (a second), at most;
        `lesson_language`: a run's language where neither its host nor its place names one;
        `tend_every`: how often due assignments, reminders and recall rounds are looked for.
        """
        self.engine = engine
        self.reveal_waits = reveal_waits
        self.presenter = presenter
        self.deliveries = Deliveries(engine)
        self.verbs = Verbs(engine, presenter, help_note, lesson_language, tend_every)
        self.assignments = self.verbs.assignments
        self.recalls = Recalls(engine, presenter, recall_pace, tend_every)
        self._clicked: dict[type[Any], ClickHandler] = {
            Answered: self._answered, Revealed: self._revealed, MovedOn: self._moved_on,
            OwnStepReached: self._own_step, FormOpened: self._form, CheckAnswered: self._check,
        }

    async def click(
        self, actor: Actor, custom_id: str, delivery: Delivery | None = None
    ) -> Outcome:
        """A lesson button clicked: choose, rate, check, answer, reveal or next."""
        return await self._once(actor, delivery, lambda: self._click(actor, custom_id))

    async def answer(
        self, actor: Actor, custom_id: str, text: str, delivery: Delivery | None = None
    ) -> Outcome:
        """An answer typed into the form of a free-answer step, graded privately."""
        return await self._once(actor, delivery, lambda: self._answer(actor, custom_id, text))

    async def command(
        self, actor: Actor, verb: str, args: CommandArgs, delivery: Delivery | None = None
    ) -> Outcome:
        """A host verb or member command with arguments the platform already parsed."""
        return await self._once(actor, delivery, lambda: self.verbs.run(actor, verb, args))

    async def command_text(
        self, actor: Actor, text: str, delivery: Delivery | None = None
    ) -> Outcome:
        """A command typed as text (`start rlvr 90`): parsed, then run like `command`."""

        async def decide() -> Outcome:
            verb, args = parse_command(text)
            return await self.verbs.run(actor, verb, args)

        return await self._once(actor, delivery, decide)

    async def _once(
        self, actor: Actor, delivery: Delivery | None, decide: Callable[[], Awaitable[Outcome]]
    ) -> Outcome:
        """The one request path: claim the delivery, let the platform act on it, decide."""
        try:
            if delivery is not None:
                if not await self.deliveries.claim(actor.place.platform, delivery.key):
                    return Outcome((AlreadyHandled(),))
                await delivery.claimed()
            return await decide()
        except LessonBotError as error:
            return Outcome((Refusal(str(error)),))

    async def note_locale(self, actor: Actor, locale: str) -> None:
        """Store a member's language learnt after their request was answered (a Slack burst)."""
        await self.engine.note_locale(actor.place, actor.user_id, locale)

    async def fire_timers(self, platform: str | None = None) -> int:
        """Fire the due timers, and every few seconds tend the assignments; how many acted.

        Each timed run is revealed or moved on in its turn.
        """
        tended = await self.assignments.tend(platform) + await self.recalls.tend(platform)
        due = await self.engine.due_runs(platform)
        return tended + await each_in_turn(
            due, self._fire_timer, "could not show a timed step for run %s"
        )

    async def _fire_timer(self, run: RunRecord) -> int:
        run_id = run.id
        async with self.presenter.turns.holding(run_id, patience=TIMER_PATIENCE):
            event = await self.engine.fire_timer(run_id)
            if event is None:
                return 0
            try:
                await self.presenter.timer_fired(event)
            except PlatformUnavailable:
                self.presenter.behind(run_id)
            return 1

    async def _click(self, actor: Actor, custom_id: str) -> Outcome:
        address = parse_address(custom_id)
        member = await actor.member(address.action in HOST_ACTIONS)
        if member.is_host:  # a host's click may move the lesson: in the run's turn
            return await self.presenter.in_turn(
                address.run_id, lambda: self._decide_click(actor, address, member)
            )
        return await self._decide_click(actor, address, member)

    async def _decide_click(self, actor: Actor, address: Address, member: Member) -> Outcome:
        """What the click came to, made an outcome by the handler its kind of result has."""
        clicked = await self.engine.click(address, member, actor.place)
        return await self._clicked[type(clicked)](address, member, clicked)

    async def _answered(self, address: Address, member: Member, clicked: Answered) -> Outcome:
        # The run's own channel, wherever the click came from (a member's direct message).
        channel = await self.engine.channel_of(address.run_id)
        return await self._receipt(channel, clicked.receipt, member)

    async def _revealed(self, address: Address, member: Member, clicked: Revealed) -> Outcome:
        reveal, channel = clicked.reveal, await self.engine.channel_of(address.run_id)
        return confirmed(revealed_text(reveal), lambda: self.presenter.reveal(channel, reveal))

    async def _moved_on(self, address: Address, member: Member, clicked: MovedOn) -> Outcome:
        advance, channel = clicked.advance, await self.engine.channel_of(address.run_id)
        return confirmed(moved_text(advance), lambda: self.presenter.advance(channel, advance))

    async def _own_step(
        self, address: Address, member: Member, clicked: OwnStepReached
    ) -> Outcome:
        return self.assignments.own(address.run_id, clicked.own)

    async def _form(self, address: Address, member: Member, clicked: FormOpened) -> Outcome:
        answer = Address(address.run_id, address.step_id, Action.ANSWER)
        return Outcome((FormToOpen(answer, clicked.card, clicked.form),))

    async def _check(self, address: Address, member: Member, clicked: CheckAnswered) -> Outcome:
        """A private check: its message is redrawn where it was clicked."""
        return Outcome((CheckMovedOn(check_card(clicked.check)),))

    async def _answer(self, actor: Actor, custom_id: str, text: str) -> Outcome:
        address = parse_address(custom_id)
        if address.action is not Action.ANSWER:
            raise BadAddress()
        member = await actor.member(needs_rights=False)
        receipt = await self.engine.submit_answer(
            address.run_id, address.step_id, member, text, actor.place
        )
        channel = await self.engine.channel_of(receipt.run_id)
        return await self._receipt(channel, receipt, member)

    async def _receipt(self, channel: str, receipt: Receipt, member: Member) -> Outcome:
        """A member's receipt; the step's counter in the run's `channel` is updated soon after.

        The run's mode says what else the member sees: in an assigned lesson there is no
        counter on a shared step and no reveal to come; the member who answered sees the
        question's tally so far instead, and their own step again.
        """

        async def count() -> None:
            self.presenter.answered(channel, receipt.run_id, receipt.step_id)

        after = await self.engine.after_answer(receipt.run_id, receipt.step_id, member)
        told = receipt.full_text(self.reveal_waits and after.channel_reveals)
        hidden = () if receipt.redraw is None else (ReasonHidden(receipt.redraw),)
        show = count if receipt.counted and after.channel_reveals else nothing
        return Outcome((*hidden, self._receipt_effect(told, receipt, after.own)), show)

    @staticmethod
    def _receipt_effect(told: str, receipt: Receipt, own: OwnStep | None) -> Effect:
        """The receipt alone; in an assignment, with the tally so far and the member's step."""
        if own is None:
            return AnswerReceipt(told, receipt.reward, receipt.tries_left)
        so_far = "" if own.so_far is None else f"\n\n{so_far_text(own.so_far)}"
        step = replace(own, text=told)
        return OwnStepAnswered(told + so_far, step, receipt.reward, receipt.tries_left)

