"""Members' reasons at a peer round: saved by upsert, shown least-shown first, hidden by hosts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy import Exists, Select, Subquery, exists, select, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.model.records import ListedReason, Member, ShownReason, VoteAt
from storage.models import MemberRow, ReasonRow, RunRow, VoteRow
from storage.upsert import upsert

if TYPE_CHECKING:
    MemberIdOf = Callable[[AsyncSession, int, Member], Awaitable[int]]

REASON_KEYS = ["run_id", "step_id", "member_id", "vote"]
SHOWN_FIRST = 1
NO_CHOICE = ""
"""The stored choice of a reason sent before its author chose: it goes with what they hold."""
"""Only reasons given with a first answer are shown to others: they were written alone."""
COUNT_TRIES = 100
"""Reads of the least-shown reason before a reader gives up its turn: each one lost is a turn
another reader took, so only a crowd of readers of one choice at once can use them all."""


class ReasonStore:
    """Saving, choosing and hiding members' reasons."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]
    dialect: str
    _member_id: MemberIdOf

    async def save_reason(
        self, run_id: int, step_id: str, member: Member, vote: int, choice: str | None, text: str
    ) -> None:
        """Store a member's reason with their first (`vote` 1) or second (2) answer.

        One row per member, step and vote: a second reason for the same vote replaces the first,
        and takes its turn as a new one (not yet shown). A reason a host hid stays hidden.
        Without `choice` (sent before answering), it goes with the answer its author holds.
        """
        async with self.sessions.begin() as session:
            member_id = await self._member_id(session, run_id, member)
            values = {
                "run_id": run_id,
                "step_id": step_id,
                "member_id": member_id,
                "vote": vote,
                "choice_id": NO_CHOICE if choice is None else choice,
                "text": text,
                "shown": 0,
                "hidden": False,
            }
            changed = ["choice_id", "text", "shown", "updated_at"]
            await session.execute(upsert(self.dialect, ReasonRow, values, REASON_KEYS, changed))

    async def reasons_to_show(
        self, run_id: int, held: VoteAt, choices: Sequence[str], not_by: str | None = None
    ) -> list[ShownReason]:
        """For each of `choices` in turn, the visible first-vote reason least shown so far.

        A reason argues for a choice only while its author's answer `held` (their first) is
        that choice: one whose author changed their answer waits until they choose it again,
        and one sent before they answered argues for the answer they hold. Reasons by the
        member `not_by` are passed over, and a choice with none is skipped. Each reason
        returned counts as shown once more, so every reason gets its turn; readers at once
        each take their own, as if one came after the other.
        """
        shown: list[ShownReason] = []
        for choice in choices:
            reason = await self._count_least_shown(_least_shown(run_id, held, choice, not_by))
            if reason is not None:
                shown.append(ShownReason(reason[0], choice, reason[1]))
        return shown

    async def _count_least_shown(self, least_shown: Select[int, int]) -> tuple[int, str] | None:
        """The reason `least_shown` finds, counted as shown once more, in one statement.

        It is counted only if no other reader counted it meanwhile (its count is still as
        read); else, while there is one to read, the least shown is read again. So readers at
        once each take their own turn, as if one came after the other, on every database.
        """
        pick = least_shown.subquery()
        counted = (
            update(ReasonRow)
            .where(
                ReasonRow.id == select(pick.c.id).scalar_subquery(),
                ReasonRow.shown == select(pick.c.shown).scalar_subquery(),
            )
            .values(shown=ReasonRow.shown + 1)
            .returning(ReasonRow.id, ReasonRow.text)
        )
        for _try in range(COUNT_TRIES):
            async with self.sessions.begin() as session:
                shown = (await session.execute(counted)).first()
            if shown is not None:
                return shown[0], shown[1]
            async with self.statements() as session:
                if (await session.execute(least_shown)).first() is None:
                    return None
        return None

    async def hide_reason(self, run_id: int, reason_id: int) -> bool:
        """Hide a reason of a run from now on; whether there was such a reason to hide."""
        statement = (
            update(ReasonRow)
            .where(ReasonRow.run_id == run_id, ReasonRow.id == reason_id)
            .values(hidden=True)
        )
        async with self.sessions.begin() as session:
            hidden = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return bool(hidden)

    async def member_reasons(self, run_id: int, step_id: str, user_id: str) -> dict[int, str]:
        """A member's own reasons at a step, by the answer (1 or 2) each was given with."""
        query = (
            select(ReasonRow.vote, ReasonRow.text)
            .join(MemberRow, MemberRow.id == ReasonRow.member_id)
            .where(
                ReasonRow.run_id == run_id,
                ReasonRow.step_id == step_id,
                MemberRow.user_id == user_id,
            )
        )
        async with self.statements() as session:
            return {vote: text for vote, text in await session.execute(query)}

    async def run_reasons(self, run_id: int) -> list[ListedReason]:
        """Every reason given in a run, oldest first, hidden ones too: for its hosts to review."""
        query = (
            select(
                ReasonRow.id, ReasonRow.step_id, ReasonRow.choice_id, ReasonRow.vote,
                ReasonRow.text, ReasonRow.shown, ReasonRow.hidden,
            )
            .where(ReasonRow.run_id == run_id)
            .order_by(ReasonRow.id)
        )
        async with self.statements() as session:
            listed = [ListedReason(*row) for row in await session.execute(query)]
        return [replace(r, choice=r.choice or None) for r in listed]


def _least_shown(
    run_id: int, held: VoteAt, choice: str, not_by: str | None
) -> Select[int, int]:
    """The visible first-vote reason for a choice shown least, oldest first: its id and count.

    Only a reason whose author's answer `held` is that choice: one given for it, or one sent
    before they answered. Each of the two is read in the index's order, then the lesser taken.
    """
    least = [_least_stored(run_id, held, choice, stored, not_by) for stored in (choice, NO_CHOICE)]
    found = union_all(*(select(one.c.id, one.c.shown) for one in least)).subquery()
    return select(found.c.id, found.c.shown).order_by(found.c.shown, found.c.id).limit(1)


def _least_stored(
    run_id: int, held: VoteAt, choice: str, stored: str, not_by: str | None
) -> Subquery:
    """The least shown visible first-vote reason stored with `stored`, for `choice` held."""
    query = select(ReasonRow.id, ReasonRow.shown).where(
        ReasonRow.run_id == run_id,
        ReasonRow.step_id == held.step_id,
        ReasonRow.vote == SHOWN_FIRST,
        ReasonRow.choice_id == stored,
        ReasonRow.hidden.is_(False),
        _holds(held, choice),
    )
    if not_by is not None:
        query = query.where(ReasonRow.member_id.not_in(_members_named(run_id, not_by)))
    return query.order_by(ReasonRow.shown, ReasonRow.id).limit(1).subquery()


def _holds(held: VoteAt, choice: str) -> Exists:
    """Whether a reason's author's answer `held` is `choice`."""
    return exists().where(
        VoteRow.run_id == ReasonRow.run_id,
        VoteRow.step_id == held.step_id,
        VoteRow.member_id == ReasonRow.member_id,
        VoteRow.kind == held.kind,
        VoteRow.value == choice,
    )


def _members_named(run_id: int, user_id: str) -> Select[int]:
    """The member row of a user id in the workspace of a run (none if never stored)."""
    return (
        select(MemberRow.id)
        .join(RunRow, RunRow.id == run_id)
        .where(
            MemberRow.user_id == user_id,
            MemberRow.platform == RunRow.platform,
            MemberRow.workspace_id == RunRow.workspace_id,
        )
    )
