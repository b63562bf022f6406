"""Members' passes through assigned runs, and the assigned runs due to close or to remind.

A pass is one row per member and run (`uq_member_pass`): starting again, from however many
processes at once, finds the row already there. A pass moves with one conditional UPDATE from
the step the caller saw, so of two moves from one step exactly one wins. Each member's
reminder is claimed the same way before it is sent (a lease: holder and expiry, as post turns
have), then marked sent; the run's reminder is done, once, when no member is owed one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeAlias

from sqlalchemy import (
    ColumnElement,
    ScalarSelect,
    Select,
    SQLColumnExpression,
    Update,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.model.records import Member, MemberPass, PassProgress, RunMode, RunRecord, RunState
from storage.models import MemberPassRow, MemberRow, RunRow, StepMessageRow
from storage.records import run_record
from storage.upsert import insert_for

PASS_COLUMNS = (
    MemberPassRow.run_id,
    MemberPassRow.step_index,
    MemberPassRow.started_at,
    MemberPassRow.finished_at,
    MemberPassRow.unreachable,
)
"""The columns of a pass, in `MemberPass` order after the user id."""

PassRows: TypeAlias = "Select[str, str, str | None, int, int, datetime, datetime | None, bool]"
"""A query of passes: the member's user id, display name and locale, then `PASS_COLUMNS`."""


class PassStore:
    """Starting, moving and counting members' passes; finding assigned runs that are due."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]
    dialect: str

    async def _member_id(self, session: AsyncSession, run_id: int, member: Member) -> int:
        """The member's id in the run's workspace, the member stored if new (`SqlRunStore`)."""
        raise NotImplementedError

    async def start_pass(self, run_id: int, member: Member, now: datetime) -> MemberPass:
        """The member's pass, begun at step 0 now unless it already exists (then as stored)."""
        values = {
            "run_id": run_id,
            "step_index": 0,
            "started_at": now,
            "updated_at": now,
            "unreachable": False,
        }
        async with self.statements.begin() as session:
            member_id = await self._member_id(session, run_id, member)
            table = MemberPassRow.__table__
            insert = insert_for(self.dialect, table).values(**values, member_id=member_id)
            once = insert.on_conflict_do_nothing(index_elements=["run_id", "member_id"])
            await session.execute(once)
            query = select(*PASS_COLUMNS).where(
                MemberPassRow.run_id == run_id, MemberPassRow.member_id == member_id
            )
            row = (await session.execute(query)).one()
        return _member_pass(member.user_id, row)

    async def member_pass(self, run_id: int, user_id: str) -> MemberPass | None:
        """A member's pass through a run, if they started it."""
        query = select(*PASS_COLUMNS).where(_pass_of(run_id, user_id))
        async with self.statements() as session:
            row = (await session.execute(query)).one_or_none()
        return _member_pass(user_id, row) if row else None

    async def move_pass(
        self, run_id: int, user_id: str, expected: int, new: int, finished_at: datetime | None
    ) -> MemberPass | None:
        """Move a pass only if it is still at step `expected`; None when another move won.

        A finished pass never moves again.
        """
        statement = (
            update(MemberPassRow)
            .where(
                _pass_of(run_id, user_id),
                MemberPassRow.step_index == expected,
                MemberPassRow.finished_at.is_(None),
            )
            .values(step_index=new, finished_at=finished_at, updated_at=datetime.now(UTC))
            .returning(*PASS_COLUMNS)
        )
        async with self.statements.begin() as session:
            row = (await session.execute(statement)).one_or_none()
        return _member_pass(user_id, row) if row else None

    async def pass_progress(self, run_id: int) -> PassProgress:
        """How many started and finished, and how many are at each step."""
        passes = MemberPassRow
        totals = select(
            func.count(),
            func.count(passes.finished_at),
            func.count().filter(passes.unreachable.is_(True)),
        ).where(passes.run_id == run_id)
        at_step = (
            select(passes.step_index, func.count())
            .where(passes.run_id == run_id, passes.finished_at.is_(None))
            .group_by(passes.step_index)
            .order_by(passes.step_index)
        )
        async with self.statements() as session:
            started, finished, unreachable = (await session.execute(totals)).one()
            steps = {step: count for step, count in await session.execute(at_step)}
        return PassProgress(started, finished, steps, unreachable)

    async def run_passes(self, run_id: int) -> list[MemberPass]:
        """Every member's pass through a run, in the order they started."""
        return await self._passes(_passes_of_run(run_id))

    async def passes_to_remind(self, run_id: int) -> list[MemberPass]:
        """The passes the run's reminder is still owed to (`_owed_reminder`), oldest first."""
        return await self._passes(_passes_of_run(run_id).where(_owed_reminder()))

    async def _passes(self, query: PassRows) -> list[MemberPass]:
        async with self.statements() as session:
            return [
                _member_pass(row[0], row[3:], name=row[1], locale=row[2])
                for row in await session.execute(query)
            ]

    async def claim_member_reminder(
        self, run_id: int, user_id: str, holder: str, seconds: float,
        replacing: Collection[str] = (),
    ) -> bool:
        """Claim a member's reminder for `holder` for `seconds`; False if it is not to claim.

        It is to claim while it is owed (`_owed_reminder`) and no other holder's claim runs:
        none, one that lapsed, or one of `replacing` (holders known to be gone). One
        conditional UPDATE, so of two processes at most one claims it.
        """
        now = datetime.now(UTC)
        until = now + timedelta(seconds=seconds)
        free = [
            MemberPassRow.reminder_holder.is_(None),
            MemberPassRow.reminder_until < now,
            MemberPassRow.reminder_holder.in_(list(replacing)),
        ]
        statement = (
            update(MemberPassRow)
            .where(_pass_of(run_id, user_id), _owed_reminder(), or_(*free))
            .values(reminder_holder=holder, reminder_until=until)
        )
        return await self._changed(statement)

    async def mark_member_reminded(self, run_id: int, user_id: str, now: datetime) -> None:
        """Note that the member's reminder was sent (its claim ends with it)."""
        statement = (
            update(MemberPassRow)
            .where(_pass_of(run_id, user_id))
            .values(reminded_at=now, reminder_holder=None, reminder_until=None)
        )
        await self._changed(statement)

    async def release_member_reminder(self, run_id: int, user_id: str, holder: str) -> None:
        """Give back `holder`'s claim of a reminder not sent, for the next round to send it."""
        statement = (
            update(MemberPassRow)
            .where(
                _pass_of(run_id, user_id),
                MemberPassRow.reminder_holder == holder,
                MemberPassRow.reminded_at.is_(None),
            )
            .values(reminder_holder=None, reminder_until=None)
        )
        await self._changed(statement)

    async def reminder_holders(self, run_id: int) -> list[str]:
        """The holders of a run's claimed reminders not yet sent."""
        query = (
            select(MemberPassRow.reminder_holder)
            .where(
                MemberPassRow.run_id == run_id,
                MemberPassRow.reminder_holder.is_not(None),
                MemberPassRow.reminded_at.is_(None),
            )
            .distinct()
        )
        async with self.statements() as session:
            return [holder for holder in await session.scalars(query) if holder is not None]

    async def _changed(self, statement: Update) -> bool:
        """Run one UPDATE, committed on its own; whether it changed a row."""
        async with self.statements.begin() as session:
            changed = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return bool(changed)

    async def mark_unreachable(self, run_id: int, user_id: str) -> None:
        """Note that a member could not be messaged privately (a member without a pass: no-op)."""
        statement = (
            update(MemberPassRow)
            .where(_pass_of(run_id, user_id))
            .values(unreachable=True, updated_at=datetime.now(UTC))
        )
        async with self.statements.begin() as session:
            await session.execute(statement)

    async def finish_reminder(self, run_id: int, now: datetime) -> bool:
        """Mark the run's reminder done once no member is owed it; whether it was marked now.

        One conditional UPDATE: of many processes at most one marks it, and never while a
        member is still owed theirs (claimed elsewhere, or not answered by the platform).
        """
        owed = select(MemberPassRow.id).where(
            MemberPassRow.run_id == RunRow.id, _owed_reminder(RunRow.remind_at)
        )
        statement = (
            update(RunRow)
            .where(RunRow.id == run_id, RunRow.reminded_at.is_(None), ~owed.exists())
            .values(reminded_at=now)
        )
        return await self._changed(statement)

    async def due_assignments(self, now: datetime) -> list[RunRecord]:
        """Active assigned runs whose due time has passed."""
        query = _active_assigned().where(RunRow.due_at.is_not(None), RunRow.due_at <= now)
        return await self._runs(query.order_by(RunRow.due_at, RunRow.id))

    async def assignments_to_remind(self, now: datetime) -> list[RunRecord]:
        """Active assigned runs whose reminder time has passed and whose reminder is not done."""
        query = _active_assigned().where(
            RunRow.remind_at.is_not(None), RunRow.remind_at <= now, RunRow.reminded_at.is_(None)
        )
        return await self._runs(query.order_by(RunRow.remind_at, RunRow.id))

    async def closed_assignments_without(self, step_id: str, since: datetime) -> list[RunRecord]:
        """Assigned runs closed since `since` that have no message saved under `step_id`."""
        query = _assigned_without(step_id).where(
            RunRow.state != RunState.ACTIVE.value, RunRow.updated_at >= since
        )
        return await self._runs(query.order_by(RunRow.id))

    async def open_assignments_without(self, step_id: str) -> list[RunRecord]:
        """Active assigned runs that have no message saved under `step_id`."""
        query = _assigned_without(step_id).where(RunRow.state == RunState.ACTIVE.value)
        return await self._runs(query.order_by(RunRow.id))

    async def _runs(self, query: Select[RunRow]) -> list[RunRecord]:
        async with self.statements() as session:
            return [run_record(row) for row in await session.scalars(query)]


def _assigned_without(step_id: str) -> Select[RunRow]:
    """Assigned runs with no message saved under `step_id`."""
    saved = select(StepMessageRow.id).where(
        StepMessageRow.run_id == RunRow.id, StepMessageRow.step_id == step_id
    )
    return select(RunRow).where(RunRow.mode == RunMode.ASSIGNED.value, ~saved.exists())


def _active_assigned() -> Select[RunRow]:
    """Runs still going that members take each alone."""
    return select(RunRow).where(
        RunRow.state == RunState.ACTIVE.value, RunRow.mode == RunMode.ASSIGNED.value
    )


def _owed_reminder(remind_at: SQLColumnExpression[Any] | None = None) -> ColumnElement[bool]:
    """Which passes their run's reminder is owed to and not sent yet.

    Those begun by the reminder time (`remind_at`: the run's, read from the pass's run unless
    the query has the run already) and not finished, of members who can be messaged. A
    member who starts after the reminder time gets none: they have only just begun.
    """
    if remind_at is None:
        run_of_pass = select(RunRow.remind_at).where(RunRow.id == MemberPassRow.run_id)
        remind_at = run_of_pass.scalar_subquery()
    return (
        MemberPassRow.reminded_at.is_(None)
        & MemberPassRow.finished_at.is_(None)
        & MemberPassRow.unreachable.is_(False)
        & (MemberPassRow.started_at <= remind_at)
    )


def _passes_of_run(run_id: int) -> PassRows:
    """The passes of a run with their members' user ids and names, in the order they started."""
    return (
        select(MemberRow.user_id, MemberRow.display_name, MemberRow.locale, *PASS_COLUMNS)
        .join(MemberRow, MemberRow.id == MemberPassRow.member_id)
        .where(MemberPassRow.run_id == run_id)
        .order_by(MemberPassRow.started_at, MemberPassRow.id)
    )


def _member_in_run(run_id: int, user_id: str) -> ScalarSelect[int]:
    """The id of the member with `user_id` in the workspace of a run."""
    return (
        select(MemberRow.id)
        .join(
            RunRow,
            (RunRow.platform == MemberRow.platform)
            & (RunRow.workspace_id == MemberRow.workspace_id),
        )
        .where(RunRow.id == run_id, MemberRow.user_id == user_id)
        .scalar_subquery()
    )


def _pass_of(run_id: int, user_id: str) -> ColumnElement[bool]:
    """Which pass row is a member's in a run."""
    return (MemberPassRow.run_id == run_id) & (
        MemberPassRow.member_id == _member_in_run(run_id, user_id)
    )


def _member_pass(
    user_id: str, row: Sequence[Any], name: str = "", locale: str | None = None
) -> MemberPass:
    """A pass as the engine sees it, from its `PASS_COLUMNS`."""
    run_id, step_index, started_at, finished_at, unreachable = row
    return MemberPass(
        run_id, user_id, step_index, started_at, finished_at, bool(unreachable), name, locale
    )
