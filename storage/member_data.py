"""Members' data in the database: forgetting a member everywhere, exporting a run's answers."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, cast

from sqlalchemy import (
    Delete,
    Integer,
    Select,
    String,
    Update,
    case,
    delete,
    func,
    literal,
    literal_column,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.sql.elements import ColumnClause

from bot.model.records import (
    RECALL_ANSWER_KIND,
    RECALL_SENT_KIND,
    AnswerRecord,
    ForgetReport,
)
from storage.models import (
    CheckerRunRow,
    DeliveryRow,
    FreeAnswerRow,
    MemberPassRow,
    MemberRow,
    ReasonRow,
    RecallAnswerRow,
    RecallCheckRow,
    RecallStopRow,
    RunRow,
    VoteRow,
)

ANSWER_TABLES = (VoteRow, CheckerRunRow, FreeAnswerRow, ReasonRow)
MEMBER_TABLES = (*ANSWER_TABLES, MemberPassRow, RecallCheckRow, RecallStopRow)
"""Every table of rows that belong to one member: deleted, and counted, before the member.

A member's recall answers go first, with the checks they belong to (`_forget_rows`). Each
of these tables also cascades from `members`, so a member row deleted any other way takes
them along.
"""
FORGOTTEN_HOST = ""
"""What a forgotten host's id is replaced with on the runs they hosted."""
FORGOTTEN_MENTION = "@…"
"""What a forgotten member's name or mention is replaced with in others' reasons."""
if TYPE_CHECKING:
    AnswerSelect = Select[str, str, int, str, int, int, datetime, str]


class MemberDataStore:
    """Deleting and exporting what members answered."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]

    async def forget_member(
        self, platform: str, workspace: str, user_id: str, *, dry_run: bool = False
    ) -> ForgetReport:
        """Remove or blank every row naming a member in a workspace; count what changed.

        With `dry_run`, the same statements run and are rolled back: the counts are exactly
        what forgetting would change, and nothing changes.
        """
        async with self.sessions() as session, session.begin() as transaction:
            member = (await session.execute(_member_of(platform, workspace, user_id))).first()
            name = member.display_name if member is not None else ""
            await _unquote(session, platform, workspace, user_id, name)
            rows = await _forget_rows(session, member.id if member is not None else None)
            deliveries = await _changed(session, _claims_naming(platform, user_id))
            hosted = await _changed(session, _blank_host(platform, workspace, user_id))
            if dry_run:
                await transaction.rollback()
        return ForgetReport(
            rows[VoteRow],
            rows[CheckerRunRow],
            rows[FreeAnswerRow],
            rows[MemberRow],
            deliveries,
            hosted,
            passes=rows[MemberPassRow],
            reasons=rows[ReasonRow],
            recall_answers=rows[RecallAnswerRow],
            recall_checks=rows[RecallCheckRow],
            recall_stops=rows[RecallStopRow],
        )

    async def note_locale(self, platform: str, workspace: str, user_id: str, locale: str) -> None:
        """Store the language a member's platform is set to; nothing for a member not stored."""
        statement = (
            update(MemberRow)
            .where(MemberRow.platform == platform, MemberRow.workspace_id == workspace,
                   MemberRow.user_id == user_id)
            .values(locale=locale[:16])
        )
        async with self.sessions.begin() as session:
            await session.execute(statement)

    async def export_answers(self, run_id: int) -> list[AnswerRecord]:
        """Every answer stored for a run, and each recall check sent, oldest first."""
        answers = union_all(
            _vote_rows(run_id), _checker_rows(run_id), _try_rows(run_id), _reason_rows(run_id),
            _recall_answer_rows(run_id), _recall_sent_rows(run_id),
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
        async with self.statements() as session:
            return [AnswerRecord(*row) for row in await session.execute(query)]


def _member_of(platform: str, workspace: str, user_id: str) -> Select[int, str]:
    """The id of a member's row in a workspace, and their display name."""
    return select(MemberRow.id, MemberRow.display_name).where(
        MemberRow.platform == platform,
        MemberRow.workspace_id == workspace,
        MemberRow.user_id == user_id,
    )


async def _forget_rows(session: AsyncSession, member_id: int | None) -> dict[type, int]:
    """Delete a member's rows, then the member; how many of each table (`MEMBER_TABLES`)."""
    tables = (RecallAnswerRow, *MEMBER_TABLES, MemberRow)
    if member_id is None:
        return dict.fromkeys(tables, 0)
    checks = select(RecallCheckRow.id).where(RecallCheckRow.member_id == member_id)
    removed: dict[type, int] = {
        RecallAnswerRow: await _changed(
            session, delete(RecallAnswerRow).where(RecallAnswerRow.check_id.in_(checks))
        )
    }
    for table in MEMBER_TABLES:
        removed[table] = await _changed(session, delete(table).where(table.member_id == member_id))
    removed[MemberRow] = await _changed(session, delete(MemberRow).where(MemberRow.id == member_id))
    return removed


def quoted(user_id: str, name: str) -> re.Pattern[str]:
    """A member's mention (`<@ID>`, `<@!ID>`, `<@ID|name>`), id or name as a whole word, any case.

    The name may follow an `@`, as members type a mention that the platform did not turn into one.
    """
    words = "|".join(re.escape(word) for word in (user_id, name.strip()) if word)
    mention = rf"<@!?{re.escape(user_id)}(?:\|[^>]*)?>"
    return re.compile(rf"{mention}|(?<!\w)@?(?:{words})(?!\w)", re.IGNORECASE)


async def _unquote(
    session: AsyncSession, platform: str, workspace: str, user_id: str, name: str
) -> None:
    """Others' reasons in the workspace that quote the member, with `FORGOTTEN_MENTION` instead."""
    runs = select(RunRow.id).where(RunRow.platform == platform, RunRow.workspace_id == workspace)
    lowered = func.lower(ReasonRow.text)
    words = (user_id, name.strip())
    naming = [lowered.contains(word.lower(), autoescape=True) for word in words if word]
    found = await session.execute(
        select(ReasonRow.id, ReasonRow.text).where(ReasonRow.run_id.in_(runs), or_(*naming))
    )
    pattern = quoted(user_id, name)
    for reason_id, text in found.all():
        unquoted = pattern.sub(FORGOTTEN_MENTION, text)
        if unquoted != text:  # the same time stays: the reason was not given again
            changed = {"text": unquoted, "updated_at": ReasonRow.updated_at}
            reason = update(ReasonRow).where(ReasonRow.id == reason_id)
            await session.execute(reason.values(changed))


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


def _no_text() -> ColumnClause[str]:
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
        _no_text().label("reason"),
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
        _no_text(),
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
        _no_text(),
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


def _recall_answer_rows(run_id: int) -> AnswerSelect:
    """Answers to recall checks: the question as step, 1 if right as reward, round as try."""
    return (
        select(
            RecallAnswerRow.question_id,
            literal(RECALL_ANSWER_KIND),
            RecallCheckRow.member_id,
            RecallAnswerRow.choice_id,
            case((RecallAnswerRow.correct, 1), else_=0),
            RecallCheckRow.round,
            RecallAnswerRow.answered_at,
            _no_text(),
        )
        .join(RecallCheckRow, RecallCheckRow.id == RecallAnswerRow.check_id)
        .where(RecallCheckRow.run_id == run_id)
    )


def _recall_sent_rows(run_id: int) -> AnswerSelect:
    """Delayed recall checks sent, answered or not: no step nor value, the round as try."""
    sent = select(
        _no_text(),
        literal(RECALL_SENT_KIND),
        RecallCheckRow.member_id,
        _no_text(),
        _no_number(),
        RecallCheckRow.round,
        RecallCheckRow.sent_at,
        _no_text(),
    ).where(RecallCheckRow.run_id == run_id, RecallCheckRow.sent_at.is_not(None))
    return cast("AnswerSelect", sent)  # sent_at is never NULL in these rows
