"""Hosts review members' reasons at a channel's peer rounds and hide any by its number.

In a live run a reason posted in the discussion thread has its own Hide button; in an
assigned one reasons are only ever shown privately, so a host lists them here and hides one
with `hide <number>`, a page of them at a time. A hidden reason is never shown again, and
its post in a discussion thread is redrawn to say so.
"""

from __future__ import annotations

from bot.engine.core import RunCore, require_host
from bot.engine.ports import ReasonStorage
from bot.i18n import N_, _, ngettext
from bot.model.errors import BadInput
from bot.model.records import ListedReason, Member, Place
from bot.model.views import ReasonCard, Receipt
from bot.model.written import escaped_length, written
from lessons.schema import Lesson

NO_REASONS = N_("No reasons have been given in this channel's lesson yet.")
HIDE_USAGE = N_("Usage: `{command:hide} <number>`, with a number from `{command:reasons}`.")
NO_SUCH_NUMBER = N_(
    "This channel's lesson has no reason number {number}. See `{command:reasons}`."
)
HIDDEN_BY_NUMBER = N_("Hidden: reason {number} will not be shown to anyone again.")
PAGE_SIZE = 2_400
"""The most characters of reasons one reply lists, each counted as escaped at most
(`escaped_length`): a page and its head fit in one message on every platform (Slack's
3,000 characters, Discord's 4,096)."""
NOT_YET_CHOSEN = N_("the answer they choose")
"""What a reason sent before its author answered argues for."""
NEXT_PAGE = N_("Next page: `{command:reasons} {page}`.")
EARLIER_PAGE = N_("Earlier page: `{command:reasons} {page}`.")


class Moderation:
    """Listing a channel's reasons for its hosts, and hiding one by its number."""

    def __init__(self, core: RunCore, reasons: ReasonStorage) -> None:
        self.core = core
        self.reasons = reasons

    async def reasons_here(self, place: Place, host: Member, page: int | None = None) -> str:
        """A page of the reasons of the channel's current (or latest) run, numbered.

        Pages run oldest first; without `page`, the last one (the newest reasons).
        """
        require_host(host, N_("review members' reasons"))
        run = await self.core.run_in(place, or_latest=True)
        listed = await self.reasons.run_reasons(run.id)
        if not listed:
            return _(NO_REASONS)
        labels = choice_labels(self.core.lesson_of(run), listed)
        pages = paged([reason_line(reason, labels) for reason in listed])
        number = len(pages) if page is None else page
        if not 1 <= number <= len(pages):
            raise BadInput(no_such_page(len(pages)))
        head = _(
            "Reasons given in run {run_id} ({count}; hide one: `{command:hide} <number>`), "
            "page {page} of {pages}:",
            run_id=run.id,
            count=len(listed),
            page=number,
            pages=len(pages),
        )
        return "\n".join([head, *pages[number - 1], *page_turns(number, len(pages))])

    async def hide_here(self, place: Place, host: Member, number: int | None) -> Receipt:
        """Hide reason `number` of the channel's current (or latest) run.

        The reply, and what the reason's post in a discussion thread (if any) becomes.
        """
        require_host(host, N_("hide a reason"))
        if number is None:
            raise BadInput(_(HIDE_USAGE))
        run = await self.core.run_in(place, or_latest=True)
        if not await self.reasons.hide_reason(run.id, number):
            raise BadInput(_(NO_SUCH_NUMBER, number=number))
        hidden = ReasonCard.of_hidden(run.id, number)
        return Receipt(_(HIDDEN_BY_NUMBER, number=number), run.id, "", counted=False, redraw=hidden)


def paged(lines: list[str]) -> list[list[str]]:
    """Lines in order, in pages of at most `PAGE_SIZE` escaped characters (at least one line)."""
    pages: list[list[str]] = [[]]
    room = PAGE_SIZE
    for line in lines:
        size = escaped_length(line) + 1
        if pages[-1] and size > room:
            pages.append([])
            room = PAGE_SIZE
        pages[-1].append(line)
        room -= size
    return pages


def page_turns(page: int, pages: int) -> list[str]:
    """How to reach the next and the earlier page of reasons, where there are such."""
    turns = [_(NEXT_PAGE, page=page + 1)] if page < pages else []
    return turns + ([_(EARLIER_PAGE, page=page - 1)] if page > 1 else [])


def no_such_page(pages: int) -> str:
    """That the page asked for is not there, and which there are."""
    return ngettext(
        "There is {count} page of reasons: `{command:reasons}` shows it.",
        "There are {count} pages of reasons: `{command:reasons} <page>`, 1 to {count}.",
        pages,
    )


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
    if reason.choice is None:
        choice = _(NOT_YET_CHOSEN)
    else:
        choice = labels.get((reason.step_id, reason.choice), reason.choice)
    return _(
        "{number}. for “{choice}” ({answer}, {state}): “{text}”",
        number=reason.id,
        choice=choice,
        answer=answer,
        state=state,
        text=written(reason.text),
    )
