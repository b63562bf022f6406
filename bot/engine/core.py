"""The state every engine operation shares: finding runs and steps, checking rights, moving runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.engine.catalog import LessonCatalog, run_languages
from bot.engine.known_runs import KnownRuns
from bot.engine.ports import RunStorage
from bot.i18n import N_, _
from bot.model.errors import (
    BadAddress,
    BadInput,
    NoActiveRun,
    NotHost,
    RunElsewhere,
    StepClosed,
    UnknownRun,
)
from bot.model.records import Member, NewRun, Phase, Place, Position, RunRecord, RunState
from lessons.schema import Lesson, Step

Clock = Callable[[], datetime]
DEFAULT_RECALL = (3 * 24 * 3600,)
"""The delayed recall's delay when neither the host nor the settings name one: three days."""


def utc_now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def refusal(run: RunRecord | None, step_index: int) -> Exception:
    """Why a write for the step at `step_index` was refused, given the run as it stands."""
    if run is None or run.state is not RunState.ACTIVE:
        return NoActiveRun()
    if run.step_index != step_index:
        return StepClosed(N_("That question is over; the lesson has moved on."))
    if run.position.phase is Phase.AGAIN:
        return StepClosed(N_("The first answers are closed: answer again on the newest card."))
    if run.position.phase is Phase.OPEN:
        return StepClosed(N_("The second answers open only once the first are closed."))
    return StepClosed(N_("The answers are revealed; this question no longer takes answers."))


def require_host(member: Member, action: str) -> None:
    """Raise `NotHost` unless the member is a host."""
    if not member.is_host:
        raise NotHost(action)


def held_in(place: Place, run_id: int, run: RunRecord | None, command: str) -> RunRecord:
    """The run a `command` given in `place` names by id, which must have been held there.

    Raise `UnknownRun` if the place's workspace has no such run, and `RunElsewhere` if the run
    was held in another of its channels.
    """
    if run is None or (run.place.platform, run.place.workspace) != (
        place.platform,
        place.workspace,
    ):
        raise UnknownRun(run_id)
    if run.place.channel != place.channel:
        raise RunElsewhere(run_id, command)
    return run


class RunCore:
    """Runs and their steps: looked up, checked and moved, with the lessons and the clock."""

    def __init__(
        self, runs: RunStorage, catalog: LessonCatalog, clock: Clock,
        recall_plan: tuple[int, ...] = DEFAULT_RECALL,
    ) -> None:
        """`recall_plan`: the delayed recall's delays (seconds) of runs whose host names none."""
        self.runs = runs
        self.catalog = catalog
        self.clock = clock
        self.recall_plan = recall_plan
        self.known_runs = KnownRuns(runs.get_run)

    async def create_run(self, new: NewRun) -> RunRecord:
        """Store a new run and keep it, so its first clicks need no query.

        Its delayed recall is as the host asked, else the default; none for a lesson that
        has no delayed recall questions.
        """
        asked = self.recall_plan if new.recall_plan is None else new.recall_plan
        plan = asked if self.catalog.get(new.lesson_id).delayed_recall else ()
        run = await self.runs.create_run(replace(new, recall_plan=plan))
        self.known_runs.remember(run)
        return run

    async def run(self, run_id: int, cached: bool = False) -> RunRecord | None:
        """Any run by id, whatever its state, or None if there is none.

        As stored now; with `cached`, as first loaded and kept in memory, which saves a query
        per click but is only good for what a run never changes: its lesson, host and place.
        """
        if cached:
            return await self.known_runs.get(run_id)
        return await self.runs.get_run(run_id)

    async def open_run(self, run_id: int) -> RunRecord:
        """A run that is still going, as stored now; raise `NoActiveRun` otherwise."""
        run = await self.runs.get_run(run_id)
        if run is None or run.state is not RunState.ACTIVE:
            raise NoActiveRun()
        return run

    async def run_in(self, place: Place, or_latest: bool = False) -> RunRecord:
        """The run going on in a channel (or, with `or_latest`, else its most recent one).

        Raise `NoActiveRun` if there is none.
        """
        run = await self.runs.find_active_run(place)
        if run is None and or_latest:
            run = await self.runs.find_latest_run(place)
        if run is None:
            raise NoActiveRun()
        return run

    async def active_runs(self, platform: str) -> list[RunRecord]:
        """Every run of a platform that is still going."""
        return await self.runs.active_runs(platform)

    async def due_runs(self, platform: str | None) -> list[RunRecord]:
        """Active runs (of one platform, if given) whose deadline has passed."""
        return await self.runs.due_runs(self.clock(), platform)

    async def known_step(self, run_id: int, step_id: str) -> Step:
        """A step of a run's lesson by id (whether it is still open is checked on writing)."""
        run = await self.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        step = next((s for s in self.lesson_of(run).steps if s.id == step_id), None)
        if step is None:
            raise BadAddress()
        return step

    async def revealed(self, run_id: int, step: Step) -> bool:
        """Whether a run has revealed a step's answers (or moved past it), as stored now."""
        run = await self.run(run_id)
        if run is None:
            return False
        index = self.lesson_of(run).steps.index(step)
        if run.step_index != index:
            return run.step_index > index
        return run.position.phase is Phase.REVEALED

    def lesson_of(self, run: RunRecord, language: str | None = None) -> Lesson:
        """The lesson a run follows, in the run's language or in `language` where it has one.

        `language` is for what one member reads alone, in their own language.
        """
        return self.catalog.get(run.lesson_id, language or run.language)

    def run_language(self, lesson_id: str | None, asked: str | None = None) -> str:
        """The language a new run of a lesson speaks: `asked`, else the lesson's own.

        Raise `BadInput`, naming the languages there are, if the lesson or the bot lacks it.
        """
        offered = run_languages(self.catalog, lesson_id)
        if asked is None:
            return offered[0]
        wanted = asked.strip().replace("_", "-").split("-")[0].lower()
        if wanted not in offered:
            named, languages = asked.strip()[:20], ", ".join(offered)
            raise BadInput(_("This lesson cannot be run in “{language}”. Choose one of: "
                             "{languages}.", language=named, languages=languages))
        return wanted

    def current_step(self, run: RunRecord, step_id: str | None = None) -> Step:
        """The run's current step; raise `StepClosed` if a button names another step."""
        step = self.lesson_of(run).step_at(run.step_index)
        if step_id is not None and step_id != step.id:
            raise StepClosed(N_("That question is over; the lesson has moved on."))
        return step

    async def open_step(self, run_id: int, step_id: str) -> tuple[RunRecord, Step]:
        """The run and its current step, which must be `step_id` and still take answers.

        A step takes answers until its reveal: while open, and during a second vote.
        """
        run = await self.open_run(run_id)
        step = self.current_step(run, step_id)
        if run.position.phase is Phase.REVEALED:
            raise StepClosed(N_("The answers are revealed; this question no longer takes answers."))
        return run, step

    def deadline(self, timer_seconds: int | None) -> datetime | None:
        """When a timed phase ends, or None without a timer."""
        return self.clock() + timedelta(seconds=timer_seconds) if timer_seconds else None

    async def move(self, run: RunRecord, new: Position, state: RunState) -> RunRecord:
        """Move a run, failing with `StepClosed` if someone else moved it first."""
        deadline = self.deadline(run.timer_seconds) if state is RunState.ACTIVE else None
        ended = None if state is RunState.ACTIVE else self.clock()
        moved = await self.runs.move_run(run.id, run.position, new, state, deadline, ended)
        if moved is None:
            raise StepClosed(N_("Someone else already moved the lesson on."))
        return moved
