"""The lesson engine: one object composed of smaller parts, with every operation adapters call."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.engine.addresses import RECALL_ACTIONS, Action, Address
from bot.engine.assigned import AssignedMode, AssignedRuns
from bot.engine.cards import step_card
from bot.engine.catalog import LessonCatalog, run_languages
from bot.engine.core import DEFAULT_RECALL, Clock, RunCore, utc_now
from bot.engine.host_actions import Closing, HostActions
from bot.engine.known_runs import KnownRuns
from bot.engine.member_actions import MemberActions
from bot.engine.member_data import Forgetter, MemberData
from bot.engine.moderation import Moderation
from bot.engine.modes import AfterAnswer, LiveMode, OwnStep, RunModes
from bot.engine.platform_messages import PlatformMessages
from bot.engine.ports import AnswerChecker, RunStore
from bot.engine.recall import DEFAULT_WINDOW, CheckView, DelayedRecall
from bot.engine.run_views import RunViews
from bot.engine.step_tallies import StepTallies
from bot.engine.steps import AttemptVerdicts, OpenForm
from bot.engine.timers import RunTimers, TimerFired
from bot.i18n import SOURCE_LANGUAGE
from bot.model.errors import NoActiveRun, NoOpenCheck
from bot.model.records import Member, Phase, Place, RunRecord
from bot.model.views import (
    Advance,
    Discussion,
    Form,
    Receipt,
    RevealCard,
    StepCard,
    SummaryCard,
)
from lessons.schema import DEFAULT_MAX_TRIES, Lesson


@dataclass(frozen=True)
class Answered:
    """A step's own button (or More) pressed: the member's private receipt."""

    receipt: Receipt


@dataclass(frozen=True)
class Revealed:
    """A host's Reveal: the question closed with its results, or its discussion opened."""

    reveal: Closing


@dataclass(frozen=True)
class MovedOn:
    """A host's Next: the step left, and the next step or the lesson's results."""

    advance: Advance


@dataclass(frozen=True)
class OwnStepReached:
    """Start on an assignment's card, or a member's own Next: their own step now."""

    own: OwnStep


@dataclass(frozen=True)
class FormOpened:
    """A button that opens a form: the step as the lesson has it (a form shows no count)."""

    card: StepCard
    form: Form


@dataclass(frozen=True)
class CheckAnswered:
    """A click on a member's delayed recall check: the check as it stands, to redraw."""

    check: CheckView


Click = Answered | Revealed | MovedOn | OwnStepReached | FormOpened | CheckAnswered
"""What a button click came to, one type for each kind of result."""


class LessonEngine:
    """All lesson operations, free of any platform or database code.

    Each operation is done by one of its parts (`hosts`, `members`, `views`, `timers`,
    `member_data`, `moderation`, `messages`, `core`); the method of the same name here hands
    it over, and `click` routes a button to the operation its address names. `modes` holds the
    one object of each run mode (live, assigned), which the parts ask for what differs by mode.
    """

    def __init__(
        self,
        store: RunStore,
        checker: AnswerChecker,
        catalog: LessonCatalog | None = None,
        clock: Clock = utc_now,
        max_tries: int = DEFAULT_MAX_TRIES,
        recall_plan: tuple[int, ...] = DEFAULT_RECALL,
        recall_window: timedelta = DEFAULT_WINDOW,
    ) -> None:
        """`max_tries` caps free-answer tries at steps whose lesson sets no `max_tries`.

        `recall_plan` is the delayed recall's delays (seconds) for runs whose host names none,
        and `recall_window` how long each check stays open.
        """
        self.store = store
        self.checker = checker
        self.catalog = catalog or LessonCatalog()
        self.core = RunCore(store, self.catalog, clock, recall_plan)
        tallies = StepTallies(store)
        verdicts = AttemptVerdicts(checker)
        self.modes = RunModes(LiveMode(self.core), AssignedMode(self.core, store))
        self.views = RunViews(self.core, tallies, verdicts, self.modes, store, store)
        self.members = MemberActions(
            self.core, store, store, checker, verdicts, self.modes, max_tries
        )
        self.assigned = AssignedRuns(self.core, store, self.views, self.modes)
        self.hosts = HostActions(self.core, tallies, self.views, self.modes)
        forgetters = (self.core.known_runs.forget_host, self.members.turns.forget)
        self.member_data = MemberData(self.core, store, self.modes, forgetters)
        self.moderation = Moderation(self.core, store)
        self.messages = PlatformMessages(store)
        self.timers = RunTimers(self.core, self.hosts)
        self.recall = DelayedRecall(self.core, store, store, recall_window)

    @property
    def clock(self) -> Clock:
        """The engine's source of the current time."""
        return self.core.clock

    @property
    def known_runs(self) -> KnownRuns:
        """Runs as first loaded, kept in memory."""
        return self.core.known_runs

    # Runs and what they show

    async def run(self, run_id: int) -> RunRecord | None:
        """Any run by id as stored now, whatever its state, or None if there is none."""
        return await self.core.run(run_id)

    async def latest_run(self, platform: str) -> RunRecord | None:
        """The most recently started run of a platform, whatever its state; None if none."""
        return await self.core.runs.latest_run_on(platform)

    async def language_of(self, run_id: int) -> str:
        """The language a run speaks (English for a run there is not); it never changes."""
        run = await self.core.run(run_id, cached=True)
        return run.language if run is not None else SOURCE_LANGUAGE

    def lesson_of(self, run: RunRecord, language: str | None = None) -> Lesson:
        """The lesson a run follows, in the run's language or in `language` where it has one.

        `language` is for what one member reads alone, in their own language.
        """
        return self.core.lesson_of(run, language)

    def run_language(self, lesson_id: str | None, asked: str | None = None) -> str:
        """The language a new run of a lesson would speak: `asked`, checked, else the lesson's.

        Raise `BadInput`, naming the languages there are, if the lesson or the bot lacks it.
        """
        return self.core.run_language(lesson_id, asked)

    def run_languages(self, lesson_id: str | None = None) -> list[str]:
        """The languages a run of a lesson can speak, the lesson's own first."""
        return run_languages(self.catalog, lesson_id)

    async def channel_of(self, run_id: int) -> str:
        """The channel a run is held in, where its messages are; a run's place never changes."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        return run.place.channel

    async def open_run(self, run_id: int) -> RunRecord:
        """A run that is still going, as stored now; raise `NoActiveRun` otherwise."""
        return await self.core.open_run(run_id)

    async def run_in(self, place: Place, or_latest: bool = False) -> RunRecord:
        """The run going on in a channel (or, with `or_latest`, else its most recent one).

        Raise `NoActiveRun` if there is none.
        """
        return await self.core.run_in(place, or_latest)

    async def active_runs(self, platform: str) -> list[RunRecord]:
        """Every run of a platform that is still going."""
        return await self.core.active_runs(platform)

    async def current_card(self, run_id: int) -> StepCard:
        """The current step's card as it stands, with its answered count."""
        return await self.views.current_card(run_id)

    async def closed_card(self, run: RunRecord) -> StepCard:
        """The card of a run's current step with its buttons disabled."""
        return await self.views.closed_card(run)

    # What hosts do

    async def start(
        self,
        place: Place,
        host: Member,
        lesson_id: str | None = None,
        timer_seconds: int | None = None,
        recall: tuple[int, ...] | None = None,
        language: str | None = None,
    ) -> StepCard:
        """Open a run of a lesson in a channel and return its first step.

        `recall`: the delayed recall's delays in seconds (empty: none; None: the default).
        `language`: the run's, which the lesson and the bot must have (None: the lesson's).
        """
        return await self.hosts.start(place, host, lesson_id, timer_seconds, recall, language)

    async def reveal(self, run_id: int, host: Member, step_id: str | None = None) -> Closing:
        """Close the current question: (closed card, its results), or a discussion first."""
        return await self.hosts.reveal(run_id, host, step_id)

    async def advance(self, run_id: int, host: Member, step_id: str | None = None) -> Advance:
        """Move to the next step (revealing an open question first), or finish the lesson."""
        return await self.hosts.advance(run_id, host, step_id)

    async def stop(self, run_id: int, host: Member) -> SummaryCard:
        """End a run early and return its results so far."""
        return await self.hosts.stop(run_id, host)

    async def repost(self, place: Place, host: Member) -> StepCard | RevealCard:
        """What a channel's active run shows last, for a host to post again."""
        return await self.hosts.repost(place, host)

    async def last_posts(self, run: RunRecord) -> list[StepCard | RevealCard]:
        """What a run's channel shows last, oldest first."""
        return await self.hosts.last_posts(run)

    async def unposted_discussion(self, run: RunRecord) -> Discussion | None:
        """A run's second vote whose thread is not all posted yet (cut short), or None."""
        if run.position.phase is not Phase.AGAIN:
            return None
        card = await self.views.card_for(run)
        if await self.step_message(run.id, card.thread_key) is not None:
            return None
        return await self.hosts.discussion(run)

    async def passed_reveal(self, run: RunRecord) -> RevealCard | None:
        """The results of the run's current question once revealed, their Next disabled."""
        return await self.hosts.passed_reveal(run)

    async def results(self, run_id: int) -> SummaryCard:
        """The results of a run: participation, correct shares, raters beside the checker."""
        return await self.hosts.results(run_id)

    async def results_here(self, place: Place) -> SummaryCard:
        """The results of a channel's active run, or else of its most recent one."""
        return await self.hosts.results_here(place)

    # What members do

    async def choose(self, run_id: int, step_id: str, member: Member, choice_id: str) -> Receipt:
        """Record (or change) a member's choice on a prediction question."""
        return await self.members.press(Address(run_id, step_id, Action.CHOOSE, choice_id), member)

    async def rate(
        self, run_id: int, step_id: str, member: Member, attempt_id: str, thumbs_up: bool
    ) -> Receipt:
        """Record a member's thumbs-up or thumbs-down on a sample attempt, as a human rater."""
        action = Action.UP if thumbs_up else Action.DOWN
        return await self.members.press(Address(run_id, step_id, action, attempt_id), member)

    async def run_checker(
        self, run_id: int, step_id: str, member: Member, attempt_id: str
    ) -> Receipt:
        """Run the checker on a sample attempt, once the member has rated every attempt."""
        return await self.members.press(Address(run_id, step_id, Action.CHECK, attempt_id), member)

    async def submit_answer(
        self, run_id: int, step_id: str, member: Member, text: str, place: Place | None = None
    ) -> Receipt:
        """Grade a member's typed answer, up to the step's try cap; every try is kept."""
        return await self.members.submit_answer(run_id, step_id, member, text, place)

    async def after_answer(self, run_id: int, step_id: str, member: Member) -> AfterAnswer:
        """What the run's mode shows a member after an answer at a step, besides its receipt."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        step = self.core.lesson_of(run).step_by_id(step_id)
        return await self.modes.of(run).after_answer(self.assigned, run, step, member)

    # Clicks and timers

    async def click(
        self, address: Address, member: Member, place: Place | None = None
    ) -> Click:
        """Handle any button of this bot, read from its address, clicked in `place`."""
        if address.action in RECALL_ACTIONS:
            return CheckAnswered(await self._recall_click(address, member, place))
        if place is not None:
            await self.members.require_place(address.run_id, place, address.action)
        run_id, step_id = address.run_id, address.step_id
        match address.action:
            case Action.REVEAL:
                return Revealed(await self.hosts.reveal(run_id, member, step_id))
            case Action.NEXT:
                return MovedOn(await self.hosts.advance(run_id, member, step_id))
            case Action.MORE:
                return Answered(await self.members.more(run_id, step_id, member, self.views))
            case Action.START:
                return OwnStepReached(await self.assigned.begin(run_id, member))
            case Action.ONWARD:
                return OwnStepReached(await self.assigned.onward(run_id, member, step_id))
            case _:
                return await self.step_click(address, member)

    async def _recall_click(
        self, address: Address, member: Member, place: Place | None
    ) -> CheckView:
        """An answer to a question of a member's check, or their "No more of these"."""
        run = await self.core.run(address.run_id, cached=True)
        if run is None or (place is not None and place.platform != run.place.platform):
            raise NoOpenCheck()
        if address.action is Action.NOMORE:
            return await self.recall.stop(address.run_id, member)
        return await self.recall.answer(address.run_id, address.step_id, address.arg, member)

    async def step_click(self, address: Address, member: Member) -> Answered | FormOpened:
        """A press of a step's own button, which the kind of step handles."""
        reply = await self.members.act(address, member)
        if isinstance(reply, OpenForm):  # the step as the lesson has it: a form shows no count
            lesson = self.core.lesson_of(reply.run)
            card = step_card(reply.run.id, lesson, lesson.steps.index(reply.step))
            return FormOpened(card, reply.form)
        return Answered(reply)


    async def fire_timer(self, run_id: int) -> TimerFired | None:
        """Reveal or advance one run if its deadline has passed, as it is stored now."""
        return await self.timers.fire_timer(run_id)

    async def due_runs(self, platform: str | None) -> list[RunRecord]:
        """Active runs (of one platform, if given) whose deadline has passed."""
        return await self.core.due_runs(platform)

    # Members' data

    async def forget_member(self, place: Place, member: Member) -> str:
        """Remove or blank everything naming this member in this workspace; say what went."""
        return await self.member_data.forget_member(place, member)

    async def note_locale(self, place: Place, user_id: str, locale: str) -> None:
        """Store the language a member's platform is set to, learnt after their request."""
        await self.member_data.note_locale(place, user_id, locale)

    async def forget_preview(self, place: Place, member: Member) -> str:
        """What forgetting this member would remove, and how to confirm; changes nothing."""
        return await self.member_data.forget_preview(place, member)

    async def reasons_here(self, place: Place, host: Member, page: int | None = None) -> str:
        """For a host: a page of the reasons given in the channel's run, numbered, to hide any."""
        return await self.moderation.reasons_here(place, host, page)

    async def hide_here(self, place: Place, host: Member, number: int | None) -> Receipt:
        """For a host: hide reason `number` of the channel's run; it is never shown again.

        The reply, and what the reason's post in a discussion thread becomes.
        """
        return await self.moderation.hide_here(place, host, number)

    def on_forget(self, forgetter: Forgetter) -> None:
        """Have `forgetter` drop each member forgotten from now on from its memory too."""
        self.member_data.on_forget(forgetter)

    async def export_here(
        self, place: Place, host: Member, run_id: int | None = None
    ) -> tuple[int, str]:
        """A run's answers as CSV for a host: the named run, else the channel's current or last."""
        return await self.member_data.export_here(place, host, run_id)

    async def export_run(self, run_id: int, host: Member, place: Place) -> str:
        """A run's answers as CSV, for a host in the channel the run was held in."""
        return await self.member_data.export_run(run_id, host, place)

    # Platform messages

    async def first_delivery(self, platform: str, delivery_id: str) -> bool:
        """Whether this is the first time any process sees a platform delivery (not a retry)."""
        return await self.messages.first_delivery(platform, delivery_id)

    async def remember_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember which platform message shows a step, so any process can edit it."""
        await self.messages.remember_message(run_id, step_id, message_ref)

    async def step_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if the adapter saved one."""
        return await self.messages.step_message(run_id, step_id)

    async def remember_reveal(self, run_id: int, step_id: str, message_ref: str | None) -> None:
        """Remember which platform message shows a question's results (None: it was refused)."""
        await self.messages.remember_reveal(run_id, step_id, message_ref)

    async def reveal_message(self, run_id: int, step_id: str) -> str | None:
        """The message that shows a question's results, `NOT_POSTED`, or None if never tried."""
        return await self.messages.reveal_message(run_id, step_id)
