"""A run's mode, live or assigned: one object holding every part in which the modes differ.

The engine builds one object per mode (`LiveMode` here, `AssignedMode` beside the assigned
runs) and hands the parts that ask `RunModes.of(run)`: which step a member may answer and from
where (its pace), what a card promises, how the results begin and which questions' results
they carry, the export's extra columns, which commands it takes, when a question's longer
detail opens, what a member is shown after an answer and what the run's channel shows last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.engine.addresses import IN_THREADS, Action, same_workspace
from bot.engine.cards import moved_past
from bot.engine.core import RunCore
from bot.engine.export_columns import ExtraColumns
from bot.engine.steps import ModeWords, kind_of
from bot.engine.summary import Headline, live_headline
from bot.i18n import N_, _
from bot.model.errors import BadInput, NotRevealedYet
from bot.model.records import Member, Phase, Place, Position, RunMode, RunRecord
from bot.model.views import AnyChart, RevealCard, StepCard
from lessons.schema import Lesson, Step

IS_LIVE = N_("The lesson here is live; use `{command:stop}` to end it.")
LIVE_PROGRESS = N_("The lesson here is live; its counters are in the channel.")
LIVE_CONTINUE = N_("The lesson here is live: follow it in the channel.")
LIVE_WORDS = ModeWords(recall=N_("The reveal shows how this channel's answers moved."))
"""A live run's promises: the host reveals each question to the channel."""


class Pace(Protocol):
    """Which step of a run a member may answer now, and from where: a run's mode decides it."""

    def admits(self, run: RunRecord, place: Place, action: Action) -> bool:
        """Whether a button or form of the run may be used from `place` (else it is forged)."""
        ...

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and the step, which must take this member's answers now."""
        ...

    async def expected(
        self, run: RunRecord, step: Step, member: Member, phase: Phase = Phase.OPEN
    ) -> Position | None:
        """Where the run must still be as the answer is written; None: just still going.

        `phase` is the phase of the step the answer is for (`AGAIN` for a second vote).
        """
        ...


@dataclass(frozen=True)
class OwnStep:
    """A member's step of their own pass, to show privately: the card, and the tally so far.

    With no card, the member has finished and `text` says so; with a card, `text` is what
    their last answer at the step came to, if it is shown just after it.
    """

    card: StepCard | None
    so_far: RevealCard | None = None
    """The step's tally among everyone who answered so far, once this member has answered."""
    text: str = ""
    turn: bool = False
    """Whether the card is the member's next turn at a step answered in several turns: a new
    question to them (a reason to give, an answer to give again), not the step as answered."""
    left: str = ""
    """At such a turn, what the member is told if they move on without taking it."""

    @property
    def chart(self) -> AnyChart | None:
        """The chart to show with the step: its own, else its tally's so far."""
        if self.card is not None and self.card.chart is not None:
            return self.card.chart
        return self.so_far.chart if self.so_far is not None else None


@dataclass(frozen=True)
class AfterAnswer:
    """What a run's mode shows a member after an answer, besides its receipt."""

    own: OwnStep | None = None
    """Their own step again, with the question's tally so far (an assigned run)."""
    channel_reveals: bool = True
    """Whether the channel counts the answer and reveals the question later (a live run)."""


class ModeViews(Protocol):
    """What a mode reads of a run's views: its lesson, a question's results, its last post."""

    def lesson_of(self, run: RunRecord) -> Lesson:
        """The lesson a run follows."""
        ...

    async def reveal_card(self, run: RunRecord, step: Step) -> RevealCard:
        """The results of one question of a run."""
        ...

    async def current_post(self, run: RunRecord) -> StepCard | RevealCard:
        """What a run's channel shows last: its current step, or that question's results."""
        ...


class OwnSteps(Protocol):
    """Members' own steps of an assigned run, as a mode shows them after an answer."""

    async def step_of(
        self, run: RunRecord, step: Step, member: Member, answered: bool | None = None
    ) -> OwnStep:
        """A step of the member's pass: its card with their own buttons, the tally if answered.

        `answered` True: the member has just answered it (not looked up again).
        """
        ...


class Mode(Protocol):
    """The parts of a run that its mode decides."""

    pace: Pace
    words: ModeWords
    """What a step's card promises members."""
    refusals: Mapping[str, str]
    """The commands (by verb) this mode does not take, each with why."""

    async def headline(self, run: RunRecord, lesson: Lesson, answered: int) -> Headline:
        """The first lines of a run's results, given how many members answered anything."""
        ...

    async def reveals(self, views: ModeViews, run: RunRecord) -> tuple[RevealCard, ...]:
        """Each question's results that the run's results carry."""
        ...

    async def export_columns(self, run: RunRecord) -> ExtraColumns:
        """The columns the mode adds to a run's CSV export."""
        ...

    async def require_detail(self, run: RunRecord, step: Step, member: Member) -> None:
        """Refuse a question's longer detail this member may not read yet."""
        ...

    async def after_answer(
        self, own: OwnSteps, run: RunRecord, step: Step, member: Member
    ) -> AfterAnswer:
        """What the member is shown after an answer at `step`, besides its receipt."""
        ...

    async def channel_posts(
        self, views: ModeViews, run: RunRecord
    ) -> list[StepCard | RevealCard]:
        """What the run's channel shows last of its steps, oldest first."""
        ...


class LivePace:
    """A live run: everyone answers the run's current step while it is open."""

    def __init__(self, core: RunCore) -> None:
        self.core = core

    def admits(self, run: RunRecord, place: Place, action: Action) -> bool:
        """From the run's own channel; a reason's Hide also from its thread."""
        return run.place == place or (action in IN_THREADS and same_workspace(run.place, place))

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and its current step, which must be `step_id` and still take answers."""
        return await self.core.open_step(run_id, step_id)

    async def expected(
        self, run: RunRecord, step: Step, member: Member, phase: Phase = Phase.OPEN
    ) -> Position | None:
        """The step in `phase`, checked in the same statement that writes the answer."""
        return Position(self.core.lesson_of(run).steps.index(step), phase)


class LiveMode:
    """A live run: the host steers one shared step in the channel and reveals each question."""

    words = LIVE_WORDS
    refusals: Mapping[str, str] = {
        "close": IS_LIVE, "progress": LIVE_PROGRESS, "continue": LIVE_CONTINUE,
    }

    def __init__(self, core: RunCore) -> None:
        self.core = core
        self.pace: Pace = LivePace(core)

    async def headline(self, run: RunRecord, lesson: Lesson, answered: int) -> Headline:
        """The run's state and the step it reached, then how many members took part."""
        return await live_headline(run, lesson, answered)

    async def reveals(self, views: ModeViews, run: RunRecord) -> tuple[RevealCard, ...]:
        """None: the channel saw each question's results one by one."""
        return ()

    async def export_columns(self, run: RunRecord) -> ExtraColumns:
        """None beside the answers' own."""
        return ExtraColumns()

    async def require_detail(self, run: RunRecord, step: Step, member: Member) -> None:
        """A question's detail opens with its reveal to the channel."""
        if not await self.core.revealed(run.id, step):
            raise NotRevealedYet()

    async def after_answer(
        self, own: OwnSteps, run: RunRecord, step: Step, member: Member
    ) -> AfterAnswer:
        """Nothing more: the channel counts the answer, and its results come at the reveal."""
        return AfterAnswer()

    async def channel_posts(
        self, views: ModeViews, run: RunRecord
    ) -> list[StepCard | RevealCard]:
        """The results of the question just moved past, then the current step or its results.

        The results come first only when the current step follows a question and takes no
        answer yet.
        """
        posts: list[StepCard | RevealCard] = []
        if run.position.phase is Phase.OPEN and run.step_index > 0:
            previous = views.lesson_of(run).step_at(run.step_index - 1)
            if kind_of(previous).takes_answers:
                posts.append(moved_past(await views.reveal_card(run, previous)))
        posts.append(await views.current_post(run))
        return posts


class RunModes:
    """The one place that answers which parts a run's mode has."""

    def __init__(self, live: Mode, assigned: Mode) -> None:
        self._modes: dict[RunMode, Mode] = {RunMode.LIVE: live, RunMode.ASSIGNED: assigned}

    def of(self, run: RunRecord) -> Mode:
        """The mode a run is held in."""
        return self._modes[run.mode]

    def allows(self, run: RunRecord, verb: str) -> bool:
        """Whether the run's mode takes the command `verb`."""
        return verb not in self.of(run).refusals

    def require(self, run: RunRecord, verb: str) -> RunRecord:
        """The run, if its mode takes the command `verb`; else refuse it, saying why."""
        refused = self.of(run).refusals.get(verb)
        if refused is not None:
            raise BadInput(_(refused))
        return run
