"""The engine's `RunStore`, backed by SQLAlchemy: every aggregate is computed in SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    case,
    distinct,
    func,
    or_,
    select,
    union,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.elements import Label

from bot.model.errors import ChannelBusy, TriesUsedUp
from bot.model.records import (
    ChoicePair,
    FreeAnswerStats,
    Member,
    NewRun,
    Place,
    Position,
    RunMode,
    RunRecord,
    RunState,
    SubmittedAnswer,
    VoteAt,
    VoteCount,
    VoteResult,
)
from bot.verifier.verdict import Verdict
from storage.database import session_factory, statement_sessions
from storage.deliveries import DeliveryClaims
from storage.failures import guard_public_methods
from storage.member_data import MemberDataStore
from storage.models import (
    CheckerRunRow,
    FreeAnswerRow,
    MemberRow,
    RunRow,
    StepMessageRow,
    VoteRow,
)
from storage.passes import PassStore
from storage.post_turns import PostTurnStore
from storage.reasons import ReasonStore
from storage.recalls import RecallStore
from storage.records import graded_columns, plan_text, run_record
from storage.tallies import TallyStore
from storage.upsert import member_upsert, member_values, upsert
from storage.vote_batch import VoteBatcher, VoteRequest

CHECK_KEYS = ["run_id", "step_id", "member_id", "attempt_id"]
"""What makes a checker run the same one again: one stored verdict for each."""
VERDICT_COLUMNS = ["outcome", "read", "reward", "reason"]


@dataclass(frozen=True)
class FreeTry:
    """A graded try at a free-answer problem, to be stored under the step's try cap."""

    text: str
    verdict: Verdict
    max_tries: int | None


@guard_public_methods
class SqlRunStore(
    TallyStore, MemberDataStore, PostTurnStore, PassStore, ReasonStore, RecallStore
):
    """Runs, members and answers in a relational database."""

    def __init__(self, database: AsyncEngine) -> None:
        self.database = database
        self.sessions = session_factory(database)
        self.statements = statement_sessions(database)
        """Sessions for reads and single-statement writes: no transaction round trips."""
        self.dialect = database.dialect.name
        self._workspaces: dict[int, tuple[str, str]] = {}
        self._votes = VoteBatcher(database)
        self._deliveries = DeliveryClaims(database)

    async def create_run(self, new: NewRun) -> RunRecord:
        """Store a new active run; raise `ChannelBusy` if the channel has one."""
        row = RunRow(
            platform=new.place.platform,
            workspace_id=new.place.workspace,
            channel_id=new.place.channel,
            lesson_id=new.lesson_id,
            lesson_version=new.lesson_version,
            host_id=new.host.user_id,
            state=RunState.ACTIVE.value,
            timer_seconds=new.timer_seconds,
            deadline=new.deadline,
            mode=new.mode.value,
            due_at=new.due_at,
            remind_at=new.remind_at,
            recall_plan=plan_text(new.recall_plan),
            language=new.language,
        )
        try:
            async with self.sessions.begin() as session:
                session.add(row)
        except IntegrityError:
            busy = await self.find_active_run(new.place)
            assigned = busy is not None and busy.mode is RunMode.ASSIGNED
            raise ChannelBusy(busy.id if busy else 0, assigned) from None
        return run_record(row)

    async def get_run(self, run_id: int) -> RunRecord | None:
        """A run by id."""
        async with self.statements() as session:
            row = await session.get(RunRow, run_id)
            return run_record(row) if row else None

    async def find_active_run(self, place: Place) -> RunRecord | None:
        """The active run of a channel, if any."""
        query = select(RunRow).where(
            RunRow.platform == place.platform,
            RunRow.workspace_id == place.workspace,
            RunRow.channel_id == place.channel,
            RunRow.state == RunState.ACTIVE.value,
        )
        async with self.statements() as session:
            row = (await session.scalars(query)).first()
            return run_record(row) if row else None

    async def move_run(
        self,
        run_id: int,
        expected: Position,
        new: Position,
        state: RunState,
        deadline: datetime | None,
        ended_at: datetime | None = None,
    ) -> RunRecord | None:
        """Move a run only if it is still active at `expected`; None when another move won.

        A run that ends (any state but active) is stamped `ended_at`, by default now.
        """
        now = datetime.now(UTC)
        ended = None if state is RunState.ACTIVE else ended_at or now
        statement = (
            update(RunRow)
            .where(
                RunRow.id == run_id,
                RunRow.state == RunState.ACTIVE.value,
                RunRow.step_index == expected.step_index,
                RunRow.phase == expected.phase.value,
            )
            .values(
                step_index=new.step_index,
                phase=new.phase.value,
                state=state.value,
                deadline=deadline,
                updated_at=now,
                ended_at=ended,
            )
        )
        async with self.sessions.begin() as session:
            moved = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return await self.get_run(run_id) if moved else None

    async def active_runs(self, platform: str) -> list[RunRecord]:
        """Every run of a platform that is still going."""
        query = select(RunRow).where(
            RunRow.state == RunState.ACTIVE.value, RunRow.platform == platform
        )
        async with self.statements() as session:
            return [run_record(row) for row in await session.scalars(query)]

    async def due_runs(self, now: datetime, platform: str | None = None) -> list[RunRecord]:
        """Active runs (of one platform, if given) whose deadline has passed."""
        query = select(RunRow).where(
            RunRow.state == RunState.ACTIVE.value,
            RunRow.deadline.is_not(None),
            RunRow.deadline <= now,
        )
        if platform is not None:
            query = query.where(RunRow.platform == platform)
        async with self.statements() as session:
            return [run_record(row) for row in await session.scalars(query)]

    async def find_latest_run(self, place: Place) -> RunRecord | None:
        """The most recently started run of a channel, whatever its state."""
        return await self._latest_run(
            RunRow.platform == place.platform,
            RunRow.workspace_id == place.workspace,
            RunRow.channel_id == place.channel,
        )

    async def latest_run_on(self, platform: str) -> RunRecord | None:
        """The most recently started run of a platform, in any channel, whatever its state."""
        return await self._latest_run(RunRow.platform == platform)

    async def _latest_run(self, *where: ColumnElement[bool]) -> RunRecord | None:
        query = select(RunRow).where(*where).order_by(RunRow.id.desc()).limit(1)
        async with self.statements() as session:
            row = (await session.scalars(query)).first()
            return run_record(row) if row else None

    async def record_vote(
        self,
        run_id: int,
        step_id: str,
        member: Member,
        kind: str,
        value: str,
        expected: Position | None = None,
        blocked_by: str | None = None,
    ) -> VoteResult:
        """Upsert one vote, batched with every other vote in flight (see `VoteBatcher`)."""
        request = VoteRequest(run_id, step_id, member, kind, value, expected, blocked_by)
        return await self._votes.write(request)

    async def member_votes(self, run_id: int, step_id: str, user_id: str) -> dict[str, str]:
        """One member's votes at a step, by kind."""
        query = (
            select(VoteRow.kind, VoteRow.value)
            .join(RunRow, RunRow.id == VoteRow.run_id)
            .join(MemberRow, run_member(VoteRow.member_id))
            .where(
                VoteRow.run_id == run_id, VoteRow.step_id == step_id, MemberRow.user_id == user_id
            )
        )
        async with self.statements() as session:
            return {kind: value for kind, value in await session.execute(query)}

    async def vote_counts(self, run_id: int, step_id: str) -> list[VoteCount]:
        """Votes at a step grouped by kind and value."""
        query = (
            select(VoteRow.kind, VoteRow.value, func.count())
            .where(VoteRow.run_id == run_id, VoteRow.step_id == step_id)
            .group_by(VoteRow.kind, VoteRow.value)
        )
        async with self.statements() as session:
            return [VoteCount(k, v, n) for k, v, n in await session.execute(query)]

    async def count_participants(self, run_id: int, step_id: str) -> int:
        """Distinct members who did anything at a step."""
        return await self._count_union(*_step_participants(run_id, step_id))

    async def step_counts(self, run_id: int, step_id: str) -> tuple[int, list[VoteCount]]:
        """Distinct members who did anything at a step, and its votes by kind and value.

        One statement where the step has votes; a second count only where it has none.
        """
        participants = _union_count(*_step_participants(run_id, step_id)).scalar_subquery()
        query = (
            select(VoteRow.kind, VoteRow.value, func.count(), participants)
            .where(VoteRow.run_id == run_id, VoteRow.step_id == step_id)
            .group_by(VoteRow.kind, VoteRow.value)
        )
        async with self.statements() as session:
            rows = list(await session.execute(query))
        if not rows:
            return await self.count_participants(run_id, step_id), []
        return int(rows[0][3]), [VoteCount(k, v, n) for k, v, n, _ in rows]

    async def count_run_members(self, run_id: int) -> int:
        """Distinct members who took part anywhere in a run."""
        voters = select(VoteRow.member_id).where(VoteRow.run_id == run_id)
        answerers = select(FreeAnswerRow.member_id).where(FreeAnswerRow.run_id == run_id)
        return await self._count_union(voters, answerers)

    async def choice_pairs(self, run_id: int, first: VoteAt, second: VoteAt) -> list[ChoicePair]:
        """Members counted by their vote at `first` and at `second` (None: no vote there)."""
        per_member = (
            select(_value_at(first, "first"), _value_at(second, "second"))
            .where(VoteRow.run_id == run_id, or_(_cast_at(first), _cast_at(second)))
            .group_by(VoteRow.member_id)
            .subquery()
        )
        before, after = per_member.c
        query = select(before, after, func.count()).group_by(before, after)
        async with self.statements() as session:
            return [ChoicePair(a, b, n) for a, b, n in await session.execute(query)]

    async def record_check(
        self, run_id: int, step_id: str, member: Member, attempt_id: str, verdict: Verdict
    ) -> None:
        """Store the checker's verdict on a sample attempt: one row per member and attempt."""
        async with self.sessions.begin() as session:
            member_id = await self._member_id(session, run_id, member)
            graded = graded_columns(run_id, step_id, member_id, verdict)
            values = {**graded, "attempt_id": attempt_id}
            statement = upsert(self.dialect, CheckerRunRow, values, CHECK_KEYS, VERDICT_COLUMNS)
            await session.execute(statement)

    async def member_answered(self, run_id: int, step_id: str, user_id: str) -> bool:
        """Whether a member gave any answer at a step: a vote of any kind or a typed try."""
        answers = [
            select(row.member_id)
            .join(RunRow, RunRow.id == row.run_id)
            .join(MemberRow, run_member(row.member_id))
            .where(row.run_id == run_id, row.step_id == step_id, MemberRow.user_id == user_id)
            .exists()
            for row in (VoteRow, FreeAnswerRow)
        ]
        async with self.statements() as session:
            return bool((await session.execute(select(or_(*answers)))).scalar_one())

    async def count_tries(self, run_id: int, step_id: str, user_id: str) -> int:
        """How many tries one member has made at a free-answer problem."""
        query = (
            select(func.count())
            .select_from(FreeAnswerRow)
            .join(RunRow, RunRow.id == FreeAnswerRow.run_id)
            .join(MemberRow, run_member(FreeAnswerRow.member_id))
            .where(
                FreeAnswerRow.run_id == run_id,
                FreeAnswerRow.step_id == step_id,
                MemberRow.user_id == user_id,
            )
        )
        async with self.statements() as session:
            return int((await session.execute(query)).scalar_one())

    async def record_free_answer(
        self,
        run_id: int,
        step_id: str,
        member: Member,
        text: str,
        verdict: Verdict,
        max_tries: int | None = None,
    ) -> SubmittedAnswer:
        """Store one try at a free-answer problem; returns its try number.

        Try numbers are unique per member and step, so refusing a number past `max_tries`
        caps the tries even when the same member's tries arrive at once (`TriesUsedUp`).
        """
        graded = FreeTry(text, verdict, max_tries)
        for _ in range(3):
            try:
                return await self._insert_free_answer(run_id, step_id, member, graded)
            except IntegrityError:
                continue  # the same member's concurrent try took this number
        raise RuntimeError("could not number this try; please send it again")

    async def free_answer_stats(self, run_id: int, step_id: str) -> FreeAnswerStats:
        """Aggregates of a free-answer step."""
        answers = FreeAnswerRow
        solved = func.count(distinct(answers.member_id)).filter(answers.reward == 1)
        first_try = func.count().filter(answers.attempt_no == 1, answers.reward == 1)
        query = select(
            func.count(distinct(answers.member_id)), func.count(), solved, first_try
        ).where(answers.run_id == run_id, answers.step_id == step_id)
        async with self.statements() as session:
            members, attempts, solved_count, first = (await session.execute(query)).one()
        return FreeAnswerStats(members, attempts, solved_count, first)

    async def save_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember the platform message that shows a step (for later edits)."""
        values = {"run_id": run_id, "step_id": step_id, "message_ref": message_ref}
        statement = upsert(
            self.dialect, StepMessageRow, values, ["run_id", "step_id"], ["message_ref"]
        )
        async with self.sessions.begin() as session:
            await session.execute(statement)

    async def claim_delivery(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery id; False if any process saw it before (batched)."""
        return await self._deliveries.claim(platform, delivery_id)

    async def prune_deliveries(self, now: datetime) -> int:
        """Delete delivery claims old enough that no platform retries them; how many went."""
        return await self._deliveries.prune(now)

    async def find_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if one was saved."""
        query = select(StepMessageRow.message_ref).where(
            StepMessageRow.run_id == run_id, StepMessageRow.step_id == step_id
        )
        async with self.statements() as session:
            return (await session.execute(query)).scalar_one_or_none()

    async def _insert_free_answer(
        self, run_id: int, step_id: str, member: Member, graded: FreeTry
    ) -> SubmittedAnswer:
        async with self.sessions.begin() as session:
            member_id = await self._member_id(session, run_id, member)
            latest = select(func.coalesce(func.max(FreeAnswerRow.attempt_no), 0)).where(
                FreeAnswerRow.run_id == run_id,
                FreeAnswerRow.step_id == step_id,
                FreeAnswerRow.member_id == member_id,
            )
            attempt_no = int((await session.execute(latest)).scalar_one()) + 1
            if graded.max_tries is not None and attempt_no > graded.max_tries:
                raise TriesUsedUp(graded.max_tries)
            columns = graded_columns(run_id, step_id, member_id, graded.verdict)
            session.add(FreeAnswerRow(**columns, attempt_no=attempt_no, text=graded.text))
        return SubmittedAnswer(attempt_no, graded.verdict)

    async def _member_id(self, session: AsyncSession, run_id: int, member: Member) -> int:
        """Upsert the member (keeping their latest display name) and return its id."""
        platform, workspace = await self._workspace_of(session, run_id)
        values = member_values(platform, workspace, member)
        statement = member_upsert(self.dialect).values(**values).returning(MemberRow.id)
        return int((await session.execute(statement)).scalar_one())

    async def _workspace_of(self, session: AsyncSession, run_id: int) -> tuple[str, str]:
        """The platform and workspace of a run (they never change, so they are kept)."""
        if run_id not in self._workspaces:
            query = select(RunRow.platform, RunRow.workspace_id).where(RunRow.id == run_id)
            platform, workspace = (await session.execute(query)).one()
            self._workspaces[run_id] = (platform, workspace)
        return self._workspaces[run_id]

    async def _count_union(self, *queries: Select[int]) -> int:
        async with self.statements() as session:
            return int((await session.execute(_union_count(*queries))).scalar_one())


def _union_count(*queries: Select[int]) -> Select[int]:
    """How many distinct rows the queries give together."""
    return select(func.count()).select_from(union(*queries).subquery())


def _step_participants(run_id: int, step_id: str) -> tuple[Select[int], Select[int]]:
    """The members who voted at a step, and those who typed an answer there."""
    voters = select(VoteRow.member_id).where(VoteRow.run_id == run_id, VoteRow.step_id == step_id)
    answerers = select(FreeAnswerRow.member_id).where(
        FreeAnswerRow.run_id == run_id, FreeAnswerRow.step_id == step_id
    )
    return voters, answerers


def run_member(member_id: InstrumentedAttribute[int]) -> ColumnElement[bool]:
    """Join condition: the member behind `member_id`, in the workspace of the joined run."""
    return (
        (MemberRow.id == member_id)
        & (MemberRow.platform == RunRow.platform)
        & (MemberRow.workspace_id == RunRow.workspace_id)
    )


def _value_at(at: VoteAt, name: str) -> Label[str | None]:
    """A member's vote at one step and of one kind, grouped by member."""
    return func.max(case((_cast_at(at), VoteRow.value))).label(name)


def _cast_at(at: VoteAt) -> ColumnElement[bool]:
    """The votes of one kind at one step."""
    return and_(VoteRow.step_id == at.step_id, VoteRow.kind == at.kind)
