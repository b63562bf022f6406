"""Hosts review members' reasons at a channel's peer rounds and hide any by its number.

In a live run a reason posted in the discussion thread has its own Hide button; in an
assigned one reasons are only ever shown privately, so a host lists them here and hides one
with `hide <number>`. A hidden reason is never shown again.
"""

from __future__ import annotations

from bot.engine.core import RunCore, require_host
from bot.engine.ports import ReasonStorage
from bot.model.errors import BadInput
from bot.model.records import ListedReason, Member, Place
from lessons.schema import Lesson

NO_REASONS = "No reasons have been given in this channel's lesson yet."
HIDE_USAGE = "Usage: `/lesson hide <number>`, with a number from `/lesson reasons`."
NO_SUCH_NUMBER = "This channel's lesson has no reason number {number}. See `/lesson reasons`."
HIDDEN_BY_NUMBER = "Hidden: reason {number} will not be shown to anyone again."
LISTED_AT_MOST = 40
"""The newest reasons listed in one reply, so that it stays readable in a chat."""


class Moderation:
    """Listing a channel's reasons for its hosts, and hiding one by its number."""

    def __init__(self, core: RunCore, reasons: ReasonStorage) -> None:
        self.core = core
        self.reasons = reasons

    async def reasons_here(self, place: Place, host: Member) -> str:
        """The reasons of the channel's current (or latest) run, numbered, newest last."""
        require_host(host, "review members' reasons")
        run = await self.core.run_in(place, or_latest=True)
        listed = await self.reasons.run_reasons(run.id)
        if not listed:
            return NO_REASONS
        labels = choice_labels(self.core.lesson_of(run), listed)
        lines = [reason_line(reason, labels) for reason in listed[-LISTED_AT_MOST:]]
        head = f"Reasons given in run {run.id} ({len(listed)}; hide one: `/lesson hide <number>`):"
        return "\n".join([head, *lines])

    async def hide_here(self, place: Place, host: Member, number: int | None) -> str:
        """Hide reason `number` of the channel's current (or latest) run."""
        require_host(host, "hide a reason")
        if number is None:
            raise BadInput(HIDE_USAGE)
        run = await self.core.run_in(place, or_latest=True)
        if not await self.reasons.hide_reason(run.id, number):
            raise BadInput(NO_SUCH_NUMBER.format(number=number))
        return HIDDEN_BY_NUMBER.format(number=number)


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
    answer = "first answer" if reason.vote == 1 else "after discussion"
    state = "hidden" if reason.hidden else f"shown {reason.shown}×"
    choice = labels.get((reason.step_id, reason.choice), reason.choice)
    return f"{reason.id}. for “{choice}” ({answer}, {state}): “{reason.text}”"
