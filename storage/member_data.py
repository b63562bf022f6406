"""Members' data in the database: removing a member's answers, exporting a run's."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Integer, Select, delete, literal, literal_column, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.sql.elements import ColumnClause

from bot.model.records import AnswerRecord
from storage.models import CheckerRunRow, FreeAnswerRow, MemberRow, VoteRow

ANSWER_TABLES = (VoteRow, CheckerRunRow, FreeAnswerRow)
if TYPE_CHECKING:
    AnswerSelect = Select[str, str, int, str, int, int, datetime]


class MemberDataStore:
    """Deleting and exporting what members answered."""

    sessions: async_sessionmaker[AsyncSession]

    async def forget_member(self, platform: str, workspace: str, user_id: str) -> int:
        """Delete everything a member answered in a workspace, and the member; count the rows."""
        member = select(MemberRow.id).where(
            MemberRow.platform == platform,
            MemberRow.workspace_id == workspace,
            MemberRow.user_id == user_id,
        )
        removed = 0
        async with self.sessions.begin() as session:
            member_id = (await session.execute(member)).scalar_one_or_none()
            if member_id is None:
                return 0
            for table in ANSWER_TABLES:
                result = await session.execute(delete(table).where(table.member_id == member_id))
                removed += result.rowcount  # type: ignore[attr-defined]
            await session.execute(delete(MemberRow).where(MemberRow.id == member_id))
        return removed

    async def export_answers(self, run_id: int) -> list[AnswerRecord]:
        """Every answer stored for a run, oldest first."""
        answers = union_all(_vote_rows(run_id), _checker_rows(run_id), _try_rows(run_id))
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
            )
            .join(MemberRow, MemberRow.id == columns.member_id)
            .order_by(columns.updated_at, columns.step_id)
        )
        async with self.sessions() as session:
            return [AnswerRecord(*row) for row in await session.execute(query)]


def _no_number() -> ColumnClause[int]:
    return literal_column("CAST(NULL AS INTEGER)", Integer)


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
    ).where(FreeAnswerRow.run_id == run_id)
