"""Hosts review members' reasons at a channel's peer rounds and hide any by its number.

In a live run a reason posted in the discussion thread has its own Hide button; in an
assigned one reasons are only ever shown privately, so a host lists them here and hides one
with `hide <number>`. A hidden reason is never shown again.
"""

from __future__ import annotations

from bot.engine.core import RunCore, require_host
from bot.engine.ports import ReasonStorage
from bot.i18n import N_, _
from bot.model.errors import BadInput
from bot.model.records import ListedReason, Member, Place
from lessons.schema import Lesson

NO_REASONS = N_("No reasons have been given in this channel's lesson yet.")
HIDE_USAGE = N_("Usage: `{command:hide} <number>`, with a number from `{command:reasons}`.")
NO_SUCH_NUMBER = N_(
    "This channel's lesson has no reason number {number}. See `{command:reasons}`."
)
HIDDEN_BY_NUMBER = N_("Hidden: reason {number} will not be shown to anyone again.")
LISTED_AT_MOST = 40
"""The newest reasons listed in one reply, so that it stays readable in a chat."""


class Moderation:
    """Listing a channel's reasons for its hosts, and hiding one by its number."""

    def __init__(self, core: RunCore, reasons: ReasonStorage) -> None:
        self.core = core
        self.reasons = reasons

    async def reasons_here(self, place: Place, host: Member) -> str:
        """The reasons of the channel's current (or latest) run, numbered, newest last."""
        require_host(host, N_("review members' reasons"))
        run = await self.core.run_in(place, or_latest=True)
        listed = await self.reasons.run_reasons(run.id)
        if not listed:
            return _(NO_REASONS)
        labels = choice_labels(self.core.lesson_of(run), listed)
        lines = [reason_line(reason, labels) for reason in listed[-LISTED_AT_MOST:]]
        head = _(
            "Reasons given in run {run_id} ({count}; hide one: `{command:hide} <number>`):",
            run_id=run.id,
            count=len(listed),
        )
        return "\n".join([head, *lines])

    async def hide_here(self, place: Place, host: Member, number: int | None) -> str:
        """Hide reason `number` of the channel's current (or latest) run."""
        require_host(host, N_("hide a reason"))
        if number is None:
            raise BadInput(_(HIDE_USAGE))
        run = await self.core.run_in(place, or_latest=True)
        if not await self.reasons.hide_reason(run.id, number):
            raise BadInput(_(NO_SUCH_NUMBER, number=number))
        return _(HIDDEN_BY_NUMBER, number=number)


def choice_labels(lesson: Lesson, listed: list[ListedReason]) -> dict[tuple[str, str], str]:
    """Each listed reason's choice label, by (step id, choice id), looked up once per step."""
    steps = {reason.step_id for reason in listed}
    return {
        (step_id, choice.id): choice.label
        for step_id in steps
        for choice in lesson.step_by_id(step_id).crowd().choices
    }


def reason_line(reason: ListedReason, labels: dict[tuple[str, str], str]) -> str:
    """One reason as a host reviews it: number, choice, answer, how often shown, the text."""
    answer = _("first answer") if reason.vote == 1 else _("after discussion")
    state = _("hidden") if reason.hidden else _("shown {count}×", count=reason.shown)
    choice = labels.get((reason.step_id, reason.choice), reason.choice)
    return _(
        "{number}. for “{choice}” ({answer}, {state}): “{text}”",
        number=reason.id,
        choice=choice,
        answer=answer,
        state=state,
        text=reason.text,
    )
