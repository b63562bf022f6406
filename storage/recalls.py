"""The delayed recall: members' checks days after a lesson, their answers, and each round's post.

Checks are planned once a member's lesson is over (one row per member, run and round,
`uq_recall_check`, inserted with ON CONFLICT DO NOTHING from any number of processes). A due
check is claimed (holder and expiry, one conditional UPDATE) before it is sent, then marked
sent or unreachable, as members' reminders are. An answer is inserted once per check and
question: the first answer counts. A round's channel post is claimed and marked the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Update,
    and_,
    false,
    func,
    or_,
    select,
    true,
    union,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.model.records import (
    LaterAnswer,
    QuestionFigures,
    RecallCheck,
    RecallProgress,
    RecallRound,
    RoundFigures,
    RunMode,
    RunRecord,
    RunState,
)
from storage.models import (
    FreeAnswerRow,
    MemberPassRow,
    MemberRow,
    RecallAnswerRow,
    RecallCheckRow,
    RecallRoundRow,
    RecallStopRow,
    RunRow,
    VoteRow,
)
from storage.records import run_record
from storage.upsert import insert_for

Claimable = type[RecallCheckRow] | type[RecallRoundRow]
Insertable = Claimable | type[RecallAnswerRow] | type[RecallStopRow]


class RecallStore:
    """Planning, sending, answering and tallying members' delayed recall checks."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]
    dialect: str

    # Planning

    async def runs_to_plan(self, now: datetime) -> list[RunRecord]:
        """Runs with a recall plan owing checks: ended without rounds, or assigned and open.

        An open assignment is listed while a member who finished has no check yet.
        """
        ended = _planned_runs().where(
            RunRow.state != RunState.ACTIVE.value,
            ~select(RecallRoundRow.id).where(RecallRoundRow.run_id == RunRow.id).exists(),
        )
        voted = select(VoteRow.id).where(
            VoteRow.run_id == RunRow.id, VoteRow.member_id == MemberPassRow.member_id
        )
        finished_without = select(MemberPassRow.id).where(
            MemberPassRow.run_id == RunRow.id,
            MemberPassRow.finished_at.is_not(None),
            voted.exists(),
            ~_check_of(MemberPassRow.member_id).exists(),
        )
        open_ones = _planned_runs().where(
            RunRow.state == RunState.ACTIVE.value,
            RunRow.mode == RunMode.ASSIGNED.value,
            finished_without.exists(),
        )
        async with self.statements() as session:
            rows = [*await session.scalars(ended), *await session.scalars(open_ones)]
        return [run_record(row) for row in rows]

    async def plan_checks(self, run: RunRecord, window: timedelta) -> int:
        """Plan the checks a run owes its members now; how many it owes (new or planned before).

        Only members who answered at least one question get checks. A member's lesson ends
        when they finished their pass, else when the run ended; each round's check is due
        its delay after that, and closes `window` later. Once the run has ended, its rounds
        are planned too: each is posted when every check of it has closed.
        """
        async with self.sessions.begin() as session:
            ends = await _members_ended(session, run)
            rows = [
                {"run_id": run.id, "member_id": member, "round": number,
                 "due_at": ended + timedelta(seconds=delay),
                 "closes_at": ended + timedelta(seconds=delay) + window,
                 "unreachable": False}
                for member, ended in ends.items()
                for number, delay in enumerate(run.recall_plan, start=1)
            ]
            await self._insert_new(session, RecallCheckRow, rows)
            if run.state is not RunState.ACTIVE and run.ended_at is not None:
                await self._insert_new(session, RecallRoundRow, _rounds(run, window))
        return len(rows)

    async def _insert_new(
        self, session: AsyncSession, table: Insertable, rows: list[dict[str, Any]]
    ) -> None:
        """Insert the rows not stored yet (by the table's unique keys)."""
        if rows:
            await session.execute(insert_for(self.dialect, table).on_conflict_do_nothing(), rows)

    # Sending

    async def due_checks(
        self, now: datetime, limit: int, platform: str | None = None
    ) -> list[RecallCheck]:
        """Checks due and not sent, still open, of members who did not stop them; oldest first.

        With `platform`, only those of its runs. A check another process holds is listed too:
        its claim tells whether it may be taken over (its holder gone, or its lease lapsed).
        """
        query = (
            _check_columns()
            .where(
                _on_platform(RecallCheckRow.run_id, platform),
                _live(),
                RecallCheckRow.due_at <= now,
                RecallCheckRow.closes_at > now,
                ~_stopped().exists(),
            )
            .order_by(RecallCheckRow.due_at, RecallCheckRow.id)
            .limit(limit)
        )
        async with self.statements() as session:
            return [_check(row) for row in await session.execute(query)]

    async def claim_checks(
        self, check_ids: Collection[int], holder: str, now: datetime, seconds: float,
        replacing: Collection[str] = (),
    ) -> set[int]:
        """Claim due checks for `holder` for `seconds`, in one write; the ids it got.

        A check already sent, or held by another holder whose lease runs and who is not in
        `replacing`, is left alone.
        """
        claimed = (
            update(RecallCheckRow)
            .where(RecallCheckRow.id.in_(list(check_ids)), _live(),
                   _free(RecallCheckRow, now, replacing))
            .values(holder=holder, hold_until=now + timedelta(seconds=seconds))
            .returning(RecallCheckRow.id)
        )
        async with self.sessions.begin() as session:
            return set((await session.scalars(claimed)).all())

    async def check_sent(self, check_id: int, now: datetime, reached: bool) -> None:
        """Note that a check was sent (`reached`) or that its member cannot be messaged."""
        values = {"sent_at": now} if reached else {"unreachable": True}
        await self._changed(
            update(RecallCheckRow).where(RecallCheckRow.id == check_id)
            .values(holder=None, hold_until=None, settled=True, **values)
        )

    async def settle_checks(self, now: datetime) -> int:
        """Settle the due checks never to send: done, window passed, member stopped; how many.

        A check sent or unreachable is settled as it is noted (`check_sent`); one left
        unsettled (stored before checks were settled) is settled here.
        """
        never = or_(RecallCheckRow.sent_at.is_not(None), RecallCheckRow.unreachable == true(),
                    RecallCheckRow.closes_at <= now, _stopped().exists())
        return await self._count(
            update(RecallCheckRow).where(_live(), RecallCheckRow.due_at <= now, never)
            .values(settled=True)
        )

    async def release_check(self, check_id: int, holder: str) -> None:
        """Give back `holder`'s claim of a check not sent, for a later round to send."""
        await self._release(RecallCheckRow, check_id, holder)

    async def recall_holders(self) -> list[str]:
        """The holders of checks and rounds claimed and not yet done."""
        checks = select(RecallCheckRow.holder).where(RecallCheckRow.holder.is_not(None))
        rounds = select(RecallRoundRow.holder).where(RecallRoundRow.holder.is_not(None))
        async with self.statements() as session:
            return [holder for holder in await session.scalars(union(checks, rounds)) if holder]

    # Answering

    async def open_check(self, run_id: int, user_id: str, now: datetime) -> RecallCheck | None:
        """The member's latest check of a run that was sent and has not closed, with answers.

        A check claimed to send counts as sent: its message may reach the member, and be
        answered, before the sender has noted it sent.
        """
        query = (
            _check_columns()
            .join(RunRow, _run_of_check())
            .where(
                RecallCheckRow.run_id == run_id,
                MemberRow.user_id == user_id,
                or_(RecallCheckRow.sent_at.is_not(None), RecallCheckRow.holder.is_not(None)),
                RecallCheckRow.closes_at > now,
            )
            .order_by(RecallCheckRow.round.desc())
            .limit(1)
        )
        async with self.statements() as session:
            row = (await session.execute(query)).first()
            if row is None:
                return None
            answers = await session.execute(
                select(RecallAnswerRow.question_id, RecallAnswerRow.choice_id,
                       RecallAnswerRow.correct)
                .where(RecallAnswerRow.check_id == row.id)
                .order_by(RecallAnswerRow.answered_at, RecallAnswerRow.id)
            )
        check = _check(row)
        check.answers.update({q: (choice, bool(right)) for q, choice, right in answers})
        return check

    async def save_recall_answer(
        self, check_id: int, question_id: str, choice_id: str, correct: bool, now: datetime,
        locale: str | None = None,
    ) -> bool:
        """Store a member's answer to one question of a check; False if one was stored already.

        With `locale`, the language the member's request came in is stored with them too.
        """
        statement = (
            insert_for(self.dialect, RecallAnswerRow)
            .values(check_id=check_id, question_id=question_id, choice_id=choice_id,
                    correct=correct, answered_at=now)
            .on_conflict_do_nothing()
        )
        async with self.sessions.begin() as session:
            inserted = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
            if locale is not None:
                await session.execute(_locale_of_check_member(check_id, locale))
        return bool(inserted)

    async def stop_recalls(self, run_id: int, user_id: str, now: datetime) -> bool:
        """Note that a member wants no more checks from the run's channel; False if not theirs."""
        async with self.sessions.begin() as session:
            found = (await session.execute(_member_of_run(run_id, user_id))).first()
            if found is None:
                return False
            statement = (
                insert_for(self.dialect, RecallStopRow)
                .values(member_id=found[0], channel_id=found[1], created_at=now)
                .on_conflict_do_nothing()
            )
            await session.execute(statement)
        return True

    # The channel's rounds

    async def rounds_to_post(
        self, now: datetime, platform: str | None = None
    ) -> list[RecallRound]:
        """Rounds (of runs on `platform`) whose checks have all closed and are not posted."""
        query = (
            select(RecallRoundRow.run_id, RecallRoundRow.round, RecallRoundRow.delay_seconds)
            .where(RecallRoundRow.posted_at.is_(None), RecallRoundRow.post_at <= now,
                   _on_platform(RecallRoundRow.run_id, platform))
            .order_by(RecallRoundRow.post_at, RecallRoundRow.id)
        )
        async with self.statements() as session:
            return [RecallRound(*row) for row in await session.execute(query)]

    async def claim_round(
        self, recall_round: RecallRound, holder: str, now: datetime, seconds: float,
        replacing: Collection[str] = (),
    ) -> bool:
        """Claim a round's post for `holder` for `seconds`, unless it is posted or held."""
        round_id = await self._round_id(recall_round)
        return round_id is not None and await self._claim(
            RecallRoundRow, round_id, holder, now, seconds, replacing,
            RecallRoundRow.posted_at.is_(None),
        )

    async def round_posted(
        self, recall_round: RecallRound, now: datetime, figures: RoundFigures
    ) -> None:
        """Note that a round's figures were posted, and freeze them: no process posts again."""
        await self._changed(
            update(RecallRoundRow).where(*_round_is(recall_round))
            .values(posted_at=now, figures=_figures_payload(figures), holder=None,
                    hold_until=None)
        )

    async def posted_figures(self, run_id: int) -> dict[int, RoundFigures]:
        """The figures of each posted round of a run, as its post showed them, by round."""
        query = select(RecallRoundRow.round, RecallRoundRow.figures).where(
            RecallRoundRow.run_id == run_id, RecallRoundRow.figures.is_not(None)
        )
        async with self.statements() as session:
            return {number: _figures(payload) for number, payload in await session.execute(query)}

    async def release_round(self, recall_round: RecallRound, holder: str) -> None:
        """Give back `holder`'s claim of a round not posted."""
        round_id = await self._round_id(recall_round)
        if round_id is not None:
            await self._release(RecallRoundRow, round_id, holder)

    async def later_answers(self, run_id: int, round_number: int) -> list[LaterAnswer]:
        """Every answer members gave to a round's checks of a run."""
        query = (
            select(RecallCheckRow.member_id, RecallAnswerRow.question_id, RecallAnswerRow.correct)
            .join(RecallCheckRow, RecallCheckRow.id == RecallAnswerRow.check_id)
            .where(RecallCheckRow.run_id == run_id, RecallCheckRow.round == round_number)
        )
        async with self.statements() as session:
            return [LaterAnswer(m, q, bool(c)) for m, q, c in await session.execute(query)]

    async def lesson_choices(
        self, run_id: int, step_ids: Sequence[str]
    ) -> dict[tuple[int, str], dict[str, str]]:
        """Each member's votes at some steps of a run, by (member key, step), then by kind."""
        query = select(VoteRow.member_id, VoteRow.step_id, VoteRow.kind, VoteRow.value).where(
            VoteRow.run_id == run_id, VoteRow.step_id.in_(list(step_ids))
        )
        choices: dict[tuple[int, str], dict[str, str]] = {}
        async with self.statements() as session:
            for member, step_id, kind, value in await session.execute(query):
                choices.setdefault((member, step_id), {})[kind] = value
        return choices

    async def recall_progress(self, run_id: int) -> RecallProgress:
        """How many of a run's checks are planned, sent, answered and unreachable."""
        answered = select(RecallAnswerRow.id).where(RecallAnswerRow.check_id == RecallCheckRow.id)
        query = select(
            func.count(),
            func.count(RecallCheckRow.sent_at),
            func.count().filter(answered.exists()),
            func.count().filter(RecallCheckRow.unreachable.is_(True)),
        ).where(RecallCheckRow.run_id == run_id)
        async with self.statements() as session:
            planned, sent, with_answers, unreachable = (await session.execute(query)).one()
        return RecallProgress(planned, sent, with_answers, unreachable)

    async def round_closings(self, run_id: int) -> dict[int, datetime]:
        """When each stored round of a run has all its checks closed, by round number."""
        query = select(RecallRoundRow.round, RecallRoundRow.post_at).where(
            RecallRoundRow.run_id == run_id
        )
        async with self.statements() as session:
            return {number: closes for number, closes in await session.execute(query)}

    # Claims

    async def _claim(
        self, table: Claimable, row_id: int, holder: str, now: datetime, seconds: float,
        replacing: Collection[str], undone: ColumnElement[bool],
    ) -> bool:
        return await self._changed(
            update(table).where(table.id == row_id, undone, _free(table, now, replacing))
            .values(holder=holder, hold_until=now + timedelta(seconds=seconds))
        )

    async def _release(self, table: Claimable, row_id: int, holder: str) -> None:
        await self._changed(
            update(table).where(table.id == row_id, table.holder == holder)
            .values(holder=None, hold_until=None)
        )

    async def _round_id(self, recall_round: RecallRound) -> int | None:
        async with self.statements() as session:
            query = select(RecallRoundRow.id).where(*_round_is(recall_round))
            return (await session.execute(query)).scalar()

    async def _changed(self, statement: Update) -> bool:
        return bool(await self._count(statement))

    async def _count(self, statement: Update) -> int:
        """Rows an UPDATE changed."""
        async with self.sessions.begin() as session:
            changed: int = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return changed


def _planned_runs() -> Select[RunRow]:
    return select(RunRow).where(RunRow.recall_plan != "")


def _check_of(member_id: Any) -> Select[int]:
    """A first-round check of `member_id` in the run being selected."""
    return select(RecallCheckRow.id).where(
        RecallCheckRow.run_id == RunRow.id, RecallCheckRow.member_id == member_id
    )


async def _members_ended(session: AsyncSession, run: RunRecord) -> dict[int, datetime]:
    """Members who answered something in a run, by when their lesson ended (none: not yet)."""
    voters = select(VoteRow.member_id).where(VoteRow.run_id == run.id)
    typers = select(FreeAnswerRow.member_id).where(FreeAnswerRow.run_id == run.id)
    answered = union(voters, typers).subquery()
    query = select(answered.c.member_id, MemberPassRow.finished_at).outerjoin(
        MemberPassRow,
        and_(MemberPassRow.run_id == run.id, MemberPassRow.member_id == answered.c.member_id),
    )
    ends: dict[int, datetime] = {}
    for member, finished in await session.execute(query):
        ended = finished or run.ended_at
        if ended is not None:
            ends[member] = ended
    return ends


def _rounds(run: RunRecord, window: timedelta) -> list[dict[str, Any]]:
    assert run.ended_at is not None
    return [
        {"run_id": run.id, "round": number, "delay_seconds": delay,
         "post_at": run.ended_at + timedelta(seconds=delay) + window}
        for number, delay in enumerate(run.recall_plan, start=1)
    ]


def _check_columns() -> Any:
    return select(
        RecallCheckRow.id, RecallCheckRow.run_id, MemberRow.user_id, RecallCheckRow.round,
        RecallCheckRow.due_at, RecallCheckRow.closes_at, RecallCheckRow.sent_at, MemberRow.locale,
    ).join(MemberRow, MemberRow.id == RecallCheckRow.member_id)


def _run_of_check() -> ColumnElement[bool]:
    """The check's run, whose workspace its member is in.

    Matching the member's workspace lets a member be found by user id through the unique
    index on members, not by reading every check of the run.
    """
    return and_(RunRow.id == RecallCheckRow.run_id, RunRow.platform == MemberRow.platform,
                RunRow.workspace_id == MemberRow.workspace_id)


def _locale_of_check_member(check_id: int, locale: str) -> Update:
    """Store `locale` as the language of the member a check is for."""
    member = select(RecallCheckRow.member_id).where(RecallCheckRow.id == check_id)
    return update(MemberRow).where(MemberRow.id == member.scalar_subquery()).values(
        locale=locale[:16]
    )


def _check(row: Any) -> RecallCheck:
    return RecallCheck(row[0], row[1], row[2], row[3], row[4], row[5], row[6], locale=row[7])


def _on_platform(run_id: Any, platform: str | None) -> ColumnElement[bool]:
    """The run behind `run_id` is one of `platform`'s (any run, with no platform)."""
    if platform is None:
        return true()
    return select(RunRow.id).where(RunRow.id == run_id, RunRow.platform == platform).exists()


def _free(table: Claimable, now: datetime, replacing: Collection[str]) -> ColumnElement[bool]:
    """A row no one holds, whose lease lapsed, or whose holder is one being replaced."""
    return or_(table.holder.is_(None), table.hold_until < now, table.holder.in_(list(replacing)))


def _live() -> ColumnElement[bool]:
    """The check is still to send (`LIVE_CHECK`, so the index of live checks is used)."""
    return RecallCheckRow.settled == false()


def _stopped() -> Select[int]:
    """A stop asked by the member of the check being selected, in its run's channel."""
    return (
        select(RecallStopRow.id)
        .join(RunRow, RunRow.id == RecallCheckRow.run_id)
        .where(RecallStopRow.member_id == RecallCheckRow.member_id,
               RecallStopRow.channel_id == RunRow.channel_id)
    )


def _member_of_run(run_id: int, user_id: str) -> Select[int, str]:
    """The member with `user_id` in a run's workspace, and the run's channel."""
    return (
        select(MemberRow.id, RunRow.channel_id)
        .join(RunRow, (RunRow.platform == MemberRow.platform)
              & (RunRow.workspace_id == MemberRow.workspace_id))
        .where(RunRow.id == run_id, MemberRow.user_id == user_id)
    )


def _round_is(recall_round: RecallRound) -> tuple[ColumnElement[bool], ...]:
    return (RecallRoundRow.run_id == recall_round.run_id,
            RecallRoundRow.round == recall_round.round)


def _figures_payload(figures: RoundFigures) -> dict[str, Any]:
    """A round's figures as JSON-ready data."""
    return {"answered": figures.answered,
            "questions": [asdict(question) for question in figures.questions]}


def _figures(payload: Any) -> RoundFigures:
    """A round's figures read back from their JSON."""
    questions = tuple(QuestionFigures(**question) for question in payload["questions"])
    return RoundFigures(int(payload["answered"]), questions)
