"""Members' data in the database: forgetting a member everywhere, exporting a run's answers."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import (
    Delete,
    Integer,
    Select,
    String,
    Update,
    delete,
    literal,
    literal_column,
    select,
    union_all,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.sql.elements import ColumnClause

from bot.model.records import AnswerRecord, ForgetReport
from storage.models import (
    CheckerRunRow,
    DeliveryRow,
    FreeAnswerRow,
    MemberPassRow,
    MemberRow,
    ReasonRow,
    RunRow,
    VoteRow,
)

ANSWER_TABLES = (VoteRow, CheckerRunRow, FreeAnswerRow, ReasonRow)
MEMBER_TABLES = (*ANSWER_TABLES, MemberPassRow)
"""Every table of rows that belong to one member: deleted, and counted, before the member."""
FORGOTTEN_HOST = ""
"""What a forgotten host's id is replaced with on the runs they hosted."""
if TYPE_CHECKING:
    AnswerSelect = Select[str, str, int, str, int, int, datetime, str]


class MemberDataStore:
    """Deleting and exporting what members answered."""

    sessions: async_sessionmaker[AsyncSession]

    async def forget_member(
        self, platform: str, workspace: str, user_id: str, *, dry_run: bool = False
    ) -> ForgetReport:
        """Remove or blank every row naming a member in a workspace; count what changed.

        With `dry_run`, the same statements run and are rolled back: the counts are exactly
        what forgetting would change, and nothing changes.
        """
        async with self.sessions() as session, session.begin() as transaction:
            member_id = (await session.execute(_member_of(platform, workspace, user_id))).scalar()
            rows = await _forget_rows(session, member_id)
            deliveries = await _changed(session, _claims_naming(platform, user_id))
            hosted = await _changed(session, _blank_host(platform, workspace, user_id))
            if dry_run:
                await transaction.rollback()
        votes, checker_runs, free_answers, reasons, passes, members = rows
        return ForgetReport(
            votes,
            checker_runs,
            free_answers,
            members,
            deliveries,
            hosted,
            passes=passes,
            reasons=reasons,
        )

    async def export_answers(self, run_id: int) -> list[AnswerRecord]:
        """Every answer stored for a run, oldest first."""
        answers = union_all(
            _vote_rows(run_id), _checker_rows(run_id), _try_rows(run_id), _reason_rows(run_id)
        )
        return await self._answer_records(answers.subquery())

    async def _answer_records(self, answers: object) -> list[AnswerRecord]:
        columns = answers.c  # type: ignore[attr-defined]
        query = (
            select(
                columns.step_id,
                columns.kind,
                MemberRow.user_id,
                MemberRow.display_name,
                columns.value,
                columns.reward,
                columns.attempt_no,
                columns.updated_at,
                columns.reason,
            )
            .join(MemberRow, MemberRow.id == columns.member_id)
            .order_by(columns.updated_at, columns.step_id)
        )
        async with self.sessions() as session:
            return [AnswerRecord(*row) for row in await session.execute(query)]


def _member_of(platform: str, workspace: str, user_id: str) -> Select[int]:
    """The id of a member's row in a workspace."""
    return select(MemberRow.id).where(
        MemberRow.platform == platform,
        MemberRow.workspace_id == workspace,
        MemberRow.user_id == user_id,
    )


async def _forget_rows(session: AsyncSession, member_id: int | None) -> tuple[int, ...]:
    """Delete a member's answers and passes, then the member; count each (`MEMBER_TABLES`)."""
    if member_id is None:
        return (0,) * (len(MEMBER_TABLES) + 1)
    removed = [
        await _changed(session, delete(table).where(table.member_id == member_id))
        for table in MEMBER_TABLES
    ]
    member = delete(MemberRow).where(MemberRow.id == member_id)
    return (*removed, await _changed(session, member))


def _claims_naming(platform: str, user_id: str) -> Delete:
    """Delivery claims whose key names the user as one of its ':'-separated parts."""
    escaped = user_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    padded = literal(":").concat(DeliveryRow.delivery_id).concat(":")
    named = padded.like(f"%:{escaped}:%", escape="\\")
    return delete(DeliveryRow).where(DeliveryRow.platform == platform, named)


def _blank_host(platform: str, workspace: str, user_id: str) -> Update:
    """The runs a member hosted in a workspace, their host id replaced."""
    hosted = update(RunRow).where(
        RunRow.platform == platform, RunRow.workspace_id == workspace, RunRow.host_id == user_id
    )
    return hosted.values(host_id=FORGOTTEN_HOST)


async def _changed(session: AsyncSession, statement: Delete | Update) -> int:
    """Run a DELETE or UPDATE; how many rows it changed."""
    result = await session.execute(statement)
    return int(result.rowcount)  # type: ignore[attr-defined]


def _no_number() -> ColumnClause[int]:
    return literal_column("CAST(NULL AS INTEGER)", Integer)


def _no_reason() -> ColumnClause[str]:
    return literal_column("''", String)


def _vote_rows(run_id: int) -> AnswerSelect:
    """Choices and thumbs ratings, in the export's column order."""
    return select(
        VoteRow.step_id,
        VoteRow.kind,
        VoteRow.member_id,
        VoteRow.value,
        _no_number().label("reward"),
        _no_number().label("attempt_no"),
        VoteRow.updated_at,
        _no_reason().label("reason"),
    ).where(VoteRow.run_id == run_id)


def _checker_rows(run_id: int) -> AnswerSelect:
    """Checker runs on sample attempts, in the export's column order."""
    return select(
        CheckerRunRow.step_id,
        literal("checker"),
        CheckerRunRow.member_id,
        CheckerRunRow.attempt_id,
        CheckerRunRow.reward,
        _no_number(),
        CheckerRunRow.created_at,
        _no_reason(),
    ).where(CheckerRunRow.run_id == run_id)


def _try_rows(run_id: int) -> AnswerSelect:
    """Typed answers to free-answer problems, in the export's column order."""
    return select(
        FreeAnswerRow.step_id,
        literal("answer"),
        FreeAnswerRow.member_id,
        FreeAnswerRow.text,
        FreeAnswerRow.reward,
        FreeAnswerRow.attempt_no,
        FreeAnswerRow.created_at,
        _no_reason(),
    ).where(FreeAnswerRow.run_id == run_id)


def _reason_rows(run_id: int) -> AnswerSelect:
    """Members' reasons at a peer round: the choice as value, which answer (1 or 2) as try."""
    return select(
        ReasonRow.step_id,
        literal("reason"),
        ReasonRow.member_id,
        ReasonRow.choice_id,
        _no_number(),
        ReasonRow.vote,
        ReasonRow.updated_at,
        ReasonRow.text,
    ).where(ReasonRow.run_id == run_id)
