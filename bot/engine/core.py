"""Shared plumbing of the engine: finding runs and steps, checking rights, moving runs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.engine.catalog import LessonCatalog
from bot.engine.known_runs import KnownRuns
from bot.engine.ports import AnswerChecker, RunStore
from bot.model.errors import BadAddress, NoActiveRun, NotHost, StepClosed
from bot.model.records import Member, Phase, Place, Position, RunRecord, RunState, StepTally
from bot.model.views import LineChart, Section
from bot.verifier.verdict import Verdict
from lessons.schema import FreeAnswerStep, Lesson, Step

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


MechanismView = tuple[tuple[Section, ...], LineChart]


def refusal(run: RunRecord | None, step_index: int) -> Exception:
    """Why a write for the step at `step_index` was refused, given the run as it stands."""
    if run is None or run.state is not RunState.ACTIVE:
        return NoActiveRun()
    if run.step_index != step_index:
        return StepClosed("That question is over; the lesson has moved on.")
    return StepClosed("The answers are revealed; this question no longer takes answers.")


def require_host(member: Member, action: str) -> None:
    """Raise `NotHost` unless the member is a host."""
    if not member.is_host:
        raise NotHost(action)


class EngineCore:
    """State and helpers every engine operation uses."""

    def __init__(
        self,
        store: RunStore,
        checker: AnswerChecker,
        catalog: LessonCatalog | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.store = store
        self.checker = checker
        self.catalog = catalog or LessonCatalog()
        self.clock = clock
        self.known_runs = KnownRuns(store.get_run)
        self._attempt_verdicts: dict[tuple[str, int, str, str], Verdict] = {}
        self._mechanism_views: dict[tuple[int, str], MechanismView] = {}

    async def active_run(self, run_id: int) -> RunRecord:
        """A run that is still going; raise `NoActiveRun` otherwise."""
        run = await self.store.get_run(run_id)
        if run is None or run.state is not RunState.ACTIVE:
            raise NoActiveRun()
        return run

    async def require_place(self, run_id: int, place: Place) -> None:
        """Refuse a button or form whose run lives in another channel (a forged address)."""
        try:
            run = await self.known_run(run_id)
        except NoActiveRun:
            raise BadAddress() from None
        if run.place != place:
            raise BadAddress()

    async def known_run(self, run_id: int) -> RunRecord:
        """A run as first loaded; only its lesson, host and place are read from it."""
        run = await self.known_runs.get(run_id)
        if run is None:
            raise NoActiveRun()
        return run

    async def known_step(self, run_id: int, step_id: str) -> Step:
        """A step of a run's lesson by id (whether it is still open is checked on writing)."""
        run = await self.known_run(run_id)
        step = next((s for s in self.lesson_of(run).steps if s.id == step_id), None)
        if step is None:
            raise BadAddress()
        return step

    def lesson_of(self, run: RunRecord) -> Lesson:
        """The lesson a run follows."""
        return self.catalog.get(run.lesson_id)

    def current_step(self, run: RunRecord, step_id: str | None = None) -> Step:
        """The run's current step; raise `StepClosed` if a button names another step."""
        step = self.lesson_of(run).step_at(run.step_index)
        if step_id is not None and step_id != step.id:
            raise StepClosed("That question is over; the lesson has moved on.")
        return step

    async def open_step(self, run_id: int, step_id: str) -> tuple[RunRecord, Step]:
        """The run and its current step, which must be `step_id` and still take answers."""
        run = await self.active_run(run_id)
        step = self.current_step(run, step_id)
        if run.position.phase is not Phase.OPEN:
            raise StepClosed("The answers are revealed; this question no longer takes answers.")
        return run, step

    def deadline(self, timer_seconds: int | None) -> datetime | None:
        """When a timed phase ends, or None without a timer."""
        return self.clock() + timedelta(seconds=timer_seconds) if timer_seconds else None

    async def move(self, run: RunRecord, new: Position, state: RunState) -> RunRecord:
        """Move a run, failing with `StepClosed` if someone else moved it first."""
        deadline = self.deadline(run.timer_seconds) if state is RunState.ACTIVE else None
        moved = await self.store.move_run(run.id, run.position, new, state, deadline)
        if moved is None:
            raise StepClosed("Someone else already moved the lesson on.")
        return moved

    async def step_tally(self, run: RunRecord, step: Step) -> StepTally:
        """A step's aggregates: frozen at its reveal, or live while it is open."""
        saved = await self.store.find_tally(run.id, step.id)
        return saved if saved is not None else await self.live_tally(run.id, step)

    async def live_tally(self, run_id: int, step: Step) -> StepTally:
        """A step's aggregates as they stand in the database now."""
        participants = await self.store.count_participants(run_id, step.id)
        votes = tuple(await self.store.vote_counts(run_id, step.id))
        free = None
        if isinstance(step, FreeAnswerStep):
            free = await self.store.free_answer_stats(run_id, step.id)
        return StepTally(participants, votes, free)

    async def first_delivery(self, platform: str, delivery_id: str) -> bool:
        """Whether this is the first time any process sees a platform delivery (not a retry)."""
        return await self.store.claim_delivery(platform, delivery_id[:128])

    async def remember_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember which platform message shows a step, so any process can edit it."""
        await self.store.save_message(run_id, step_id, message_ref)

    async def step_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if the adapter saved one."""
        return await self.store.find_message(run_id, step_id)
