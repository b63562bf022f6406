"""Assigned runs: each member takes the lesson alone by a due time; the channel sees counts.

An assigned run is stored like a live one, and every answer is recorded against the same run
and step, so tallies, the checker and the results work unchanged. What differs is pace: the run
itself never moves; each member has a pass (`MemberPass`) that moves one step at a time when
they press their own Next. A member answers only the step their pass is at, and once they have
answered a question they see its tally so far. The run closes once, at its due time or when a
host closes it, and the channel then gets the results.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.engine.addresses import Action, parse_address, same_workspace
from bot.engine.core import RunCore, require_host
from bot.engine.export_columns import ExtraColumns, MemberCells
from bot.engine.modes import AfterAnswer, ModeViews, OwnStep, OwnSteps, Pace, RunModes
from bot.engine.ports import PassStorage, RunStore
from bot.engine.run_views import RunViews
from bot.engine.steps import ModeWords, OwnTurn, button_address, kind_of, more_button
from bot.engine.summary import Headline
from bot.i18n import N_, _
from bot.model.errors import BadInput, NoActiveRun, StepClosed
from bot.model.records import (
    Member,
    MemberPass,
    NewRun,
    PassProgress,
    Phase,
    Place,
    Position,
    RunMode,
    RunRecord,
    RunState,
)
from bot.model.views import Button, RevealCard, StepCard, SummaryCard, Tone
from lessons.reading import reading_minutes
from lessons.schema import Lesson, Step

START_LABEL = N_("Start")
ONWARD_LABEL = N_("Next")
CLOSED = N_("This assignment is closed; its results are posted in the channel.")
NOT_STARTED = N_("Press Start on the assignment in the channel first.")
NOT_YOUR_STEP = N_("That step is not where you are in the lesson; use the latest message.")
REMINDER_LEASE = timedelta(seconds=120)
"""How long a member's claimed reminder is its claimant's to send; after that, any process's."""
RESULTS_RETRY = timedelta(days=7)
"""How long after closing an assignment its results are still posted if they never were."""
FINISHED = N_("You have finished the lesson. The channel gets the results when it closes.")
IS_ASSIGNMENT = N_(
    "This channel's lesson is an assignment; use `{command:close}` to end it early."
)
MORE_AFTER_ANSWER = N_("This question's longer explanation opens once you have answered it.")
OWN_WORDS = ModeWords(
    recall=N_(
        "Once you answer, you see how your own answer moved and how everyone's moved so far."
    )
)
"""An assigned run's promises: each member sees a question's tally so far once they answer."""


def counts_text(started: int, finished: int) -> str:
    """How far members got, e.g. '12 started · 7 finished'."""
    return _("{started} started · {finished} finished", started=started, finished=finished)


def assigned_headline(run: RunRecord, progress: PassProgress, answered: int) -> Headline:
    """An assigned run's first results line: open or closed, and how far its members got.

    Each count is named: '12 started · 10 answered · 9 finished'; the chart counts those who
    answered.
    """
    counts = _(
        "{started} started · {answered} answered · {finished} finished",
        started=progress.started,
        answered=answered,
        finished=progress.finished,
    )
    if run.state is RunState.ACTIVE:
        line = _("Assigned lesson, open: {counts}.", counts=counts)
    else:
        line = _("Assigned lesson, closed: {counts}.", counts=counts)
    return Headline((line,), members_did=N_("answered"))


@dataclass(frozen=True)
class AssignmentCard:
    """The channel's card of an assigned run: what it is, when it is due, and counts only."""

    run_id: int
    title: str
    steps: int
    minutes: int
    due_at: datetime
    started: int = 0
    finished: int = 0
    closed: bool = False
    buttons: tuple[Button, ...] = ()
    recall_plan: tuple[int, ...] = ()
    """The delayed recall's delays after the lesson, in seconds."""

    @property
    def counter_text(self) -> str:
        """The live progress line, e.g. '12 started · 7 finished'."""
        return counts_text(self.started, self.finished)


class OwnPace:
    """An assigned run: each member answers the step their own pass is at."""

    def __init__(self, core: RunCore, passes: PassStorage) -> None:
        self.core = core
        self.passes = passes

    def admits(self, run: RunRecord, place: Place, action: Action) -> bool:
        """Start only from the run's channel; a member's own steps also privately.

        A member's own step is shown where their platform talks to them alone (a direct
        message on Slack), so its buttons come from there. They act only on the member's own
        pass, which exists once they pressed Start in the channel itself.
        """
        if run.place == place:
            return True
        return same_workspace(run.place, place) and action is not Action.START

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and the member's own step, which must be `step_id`."""
        run = await self.core.open_run(run_id)
        step = await self.core.known_step(run_id, step_id)
        await self.expected(run, step, member)
        return run, step

    async def expected(
        self, run: RunRecord, step: Step, member: Member, phase: Phase = Phase.OPEN
    ) -> Position | None:
        """Raise unless the member's pass is at `step`; the store then checks only the run.

        A member's own step has no phases: both answers of a peer round are theirs to give.
        """
        held = await self.passes.member_pass(run.id, member.user_id)
        if held is None:
            raise BadInput(_(NOT_STARTED))
        if held.finished or self.core.lesson_of(run).steps[held.step_index].id != step.id:
            raise StepClosed(_(NOT_YOUR_STEP))
        return None


class AssignedMode:
    """An assigned run: each member at their own pace, privately; the channel sees counts."""

    words = OWN_WORDS
    refusals: Mapping[str, str] = dict.fromkeys(("reveal", "next", "stop", "repost"), IS_ASSIGNMENT)

    def __init__(self, core: RunCore, store: RunStore) -> None:
        self.core = core
        self.store = store
        self.pace: Pace = OwnPace(core, store)

    async def headline(self, run: RunRecord, lesson: Lesson, answered: int) -> Headline:
        """How many started, answered, finished."""
        return assigned_headline(run, await self.store.pass_progress(run.id), answered)

    async def reveals(self, views: ModeViews, run: RunRecord) -> tuple[RevealCard, ...]:
        """Each question's results once the assignment closed, as stored; none while open."""
        if run.state is RunState.ACTIVE:
            return ()
        lesson = views.lesson_of(run)
        return tuple([
            replace(await views.reveal_card(run, step), buttons=())
            for step in questions(lesson)
        ])

    async def export_columns(self, run: RunRecord) -> ExtraColumns:
        """Every member who started, and when they started and finished."""
        return await pass_columns(run, self.store)

    async def require_detail(self, run: RunRecord, step: Step, member: Member) -> None:
        """A question's detail opens for a member once they answered it, or the run closed."""
        if await self.store.member_answered(run.id, step.id, member.user_id):
            return
        stored = await self.core.run(run.id)
        if stored is None or stored.state is RunState.ACTIVE:
            raise BadInput(_(MORE_AFTER_ANSWER))

    async def after_answer(
        self, own: OwnSteps, run: RunRecord, step: Step, member: Member
    ) -> AfterAnswer:
        """The member's own step again, with the question's tally so far: no reveal comes."""
        return AfterAnswer(
            await own.step_of(run, step, member, answered=True), channel_reveals=False
        )

    async def channel_posts(
        self, views: ModeViews, run: RunRecord
    ) -> list[StepCard | RevealCard]:
        """None: the channel shows the assignment's card, and no step."""
        return []


def assignment(run: RunRecord | None) -> RunRecord:
    """The run if it is an assignment; `NoActiveRun` otherwise."""
    if run is None or run.mode is not RunMode.ASSIGNED:
        raise NoActiveRun()
    return run


def questions(lesson: Lesson) -> list[Step]:
    """The steps of a lesson that members answer."""
    return [step for step in lesson.steps if kind_of(step).takes_answers]


class AssignedRuns:
    """Assigning a lesson, each member's own pass through it, and closing it once."""

    def __init__(self, core: RunCore, store: RunStore, views: RunViews, modes: RunModes) -> None:
        self.core = core
        self.passes: PassStorage = store
        self.store = store
        self.views = views
        self.modes = modes

    async def assign(
        self,
        place: Place,
        host: Member,
        lesson_id: str | None,
        due_at: datetime,
        remind_at: datetime | None = None,
        recall: tuple[int, ...] | None = None,
        language: str | None = None,
    ) -> AssignmentCard:
        """Open an assigned run of a lesson in a channel, due at `due_at`; its channel card.

        `recall`: the delayed recall's delays in seconds (empty: none; None: the default).
        `language`: the run's (None: the lesson's own); one the lesson or the bot lacks is
        refused before anything is stored.
        """
        require_host(host, N_("assign a lesson"))
        if due_at <= self.core.clock():
            raise BadInput(_("The due time must be in the future."))
        if remind_at is not None and not self.core.clock() < remind_at < due_at:
            raise BadInput(_("The reminder must come after now and before the due time."))
        lesson = self.core.catalog.get(lesson_id)
        new = NewRun(
            place, lesson.id, lesson.version, host, None, None,
            mode=RunMode.ASSIGNED, due_at=due_at, remind_at=remind_at, recall_plan=recall,
            language=self.core.run_language(lesson.id, language),
        )
        return await self.card(await self.core.create_run(new))

    async def card(self, run: RunRecord) -> AssignmentCard:
        """The channel's card of an assigned run, with its progress as stored now."""
        lesson = self.core.lesson_of(run)
        progress = await self.passes.pass_progress(run.id)
        closed = run.state is not RunState.ACTIVE
        start = button_address(run.id, lesson.steps[0].id, Action.START)
        assert run.due_at is not None
        return AssignmentCard(
            run_id=run.id,
            title=lesson.title,
            steps=len(lesson.steps),
            minutes=reading_minutes(lesson),
            due_at=run.due_at,
            started=progress.started,
            finished=progress.finished,
            closed=closed,
            buttons=(Button(start, _(START_LABEL), Tone.PRIMARY, disabled=closed),),
            recall_plan=run.recall_plan,
        )

    async def begin(self, run_id: int, member: Member) -> OwnStep:
        """Start the member's pass, or bring them back to the step they were at."""
        run = await self._open_assignment(run_id)
        held = await self.passes.start_pass(run.id, member, self.core.clock())
        return await self.own_step(run, held, member)

    async def resume(self, place: Place, member: Member) -> OwnStep:
        """`/lesson continue`: the member's step in the channel's assignment."""
        run = self.modes.require(await self.core.run_in(place), "continue")
        held = await self.passes.member_pass(run.id, member.user_id)
        if held is None:
            raise BadInput(_(NOT_STARTED))
        return await self.own_step(run, held, member)

    async def onward(self, run_id: int, member: Member, step_id: str) -> OwnStep:
        """The member's own Next: their pass moves one step on, or they finish the lesson.

        Left before a turn of the step they answered (a reason, a second answer), they are told
        what still counts.
        """
        run = await self._open_assignment(run_id)
        held = await self.passes.member_pass(run.id, member.user_id)
        if held is None:
            raise BadInput(_(NOT_STARTED))
        steps = self.core.lesson_of(run).steps
        if held.finished:
            return OwnStep(None, text=_(FINISHED))
        if steps[held.step_index].id != step_id:
            raise StepClosed(_(NOT_YOUR_STEP))
        turn = await kind_of(steps[held.step_index]).own_turn(self.views, run, member)
        left = turn.left if turn is not None else ""
        last = held.step_index + 1 >= len(steps)
        finished_at = self.core.clock() if last else None
        new_index = held.step_index if last else held.step_index + 1
        moved = await self.passes.move_pass(
            run.id, member.user_id, held.step_index, new_index, finished_at
        )
        if moved is None:  # a second click moved it first
            raise StepClosed(_(NOT_YOUR_STEP))
        if moved.finished:
            return OwnStep(None, text="\n\n".join(filter(None, (left, _(FINISHED)))))
        own = await self.own_step(run, moved, member)
        return replace(own, text=left) if left else own

    async def own_step(self, run: RunRecord, held: MemberPass, member: Member) -> OwnStep:
        """The member's current step: its card with their own Next, and the tally if answered."""
        if held.finished:
            return OwnStep(None, text=_(FINISHED))
        step = self.core.lesson_of(run).steps[held.step_index]
        return await self.step_of(run, step, member)

    async def step_of(
        self, run: RunRecord, step: Step, member: Member, answered: bool | None = None
    ) -> OwnStep:
        """A step of the member's pass: its card with their own buttons, the tally if answered.

        Once they answered it, a question keeps only the buttons still of use to them.
        `answered` True: the member has just answered it (not looked up again). A step
        answered in several turns shows the member's next turn, and no tally, until done.
        """
        turn = await kind_of(step).own_turn(self.views, run, member)
        if turn is not None:
            return await self.turn_of(run, step, turn)
        so_far = await self.so_far(run, step, member, answered)
        counted = so_far.answered if so_far is not None else None  # counted once, not twice
        card = await self.views.card_for(run, step=step, answered=counted)
        buttons = own_buttons(run.id, step, card.buttons, answered=so_far is not None)
        return OwnStep(replace(card, buttons=buttons), so_far)

    async def turn_of(self, run: RunRecord, step: Step, turn: OwnTurn) -> OwnStep:
        """A step's card at a member's next turn there: its prompt, sections and buttons."""
        card = await self.views.card_for(run, step=step)
        body = f"{card.body.rstrip()}\n\n{turn.prompt}"
        buttons = own_buttons(run.id, step, turn.buttons)
        shown = replace(card, body=body, sections=turn.sections, buttons=buttons)
        return OwnStep(shown, turn=True, left=turn.left)

    async def so_far(
        self, run: RunRecord, step: Step, member: Member, answered: bool | None = None
    ) -> RevealCard | None:
        """A question's tally among everyone who answered so far, once this member answered."""
        if not kind_of(step).takes_answers:
            return None
        if answered is None:
            answered = await self.store.member_answered(run.id, step.id, member.user_id)
        if not answered or not await kind_of(step).shows_so_far(self.views, run, member):
            return None
        # An assignment's tallies are frozen at its close: until then, counted as they stand.
        live = run.state is RunState.ACTIVE
        tally = await self.views.tallies.live_tally(run.id, step) if live else None
        card = await self.views.reveal_card(run, step, tally)
        title = _("So far: {step} ({answered} answered)", step=step.title, answered=card.answered)
        own = await self.own_move(run, step, member)
        return replace(card, title=title, buttons=(), notes=(*own, *card.notes))

    async def own_move(self, run: RunRecord, step: Step, member: Member) -> tuple[str, ...]:
        """At a recall question, how the member's own answer moved since they first saw it."""
        kind = kind_of(step)
        if kind.recalls is None:
            return ()
        first = await self.store.member_votes(run.id, kind.recalls, member.user_id)
        second = await self.store.member_votes(run.id, step.id, member.user_id)
        moved = kind.own_move(first, second)
        return () if moved is None else (moved,)


    async def close(self, run_id: int, host: Member | None = None) -> SummaryCard | None:
        """Close an assigned run once; its results, or None if it was closed already.

        `host` None is the due time closing it.
        """
        if host is not None:
            require_host(host, N_("close the assignment"))
        run = assignment(await self.core.run(run_id))
        if run.state is not RunState.ACTIVE:
            return None
        closed = await self.store.move_run(
            run.id, run.position, run.position, RunState.FINISHED, None, self.core.clock()
        )
        if closed is None:
            return None
        for step in questions(self.core.lesson_of(closed)):  # its results keep these counts
            await self.views.tallies.freeze(closed.id, step)
        return await self.views.summary(closed)

    async def progress(self, place: Place, host: Member) -> tuple[RunRecord, PassProgress]:
        """For a host: the channel's assignment and how far its members got."""
        require_host(host, N_("see the assignment's progress"))
        run = self.modes.require(await self.core.run_in(place, or_latest=True), "progress")
        return run, await self.passes.pass_progress(run.id)

    async def assignments_to_remind(self) -> list[RunRecord]:
        """Open assignments whose reminder time has come and whose reminder is not done."""
        return await self.passes.assignments_to_remind(self.core.clock())

    async def owed_reminders(self, run_id: int) -> list[MemberPass]:
        """The members an open assignment still owes its reminder; none once it closed.

        Those who began by the reminder time, have not finished, can be messaged and were
        not reminded yet (a member claimed by a process may be among them).
        """
        run = assignment(await self.core.run(run_id))
        if run.state is not RunState.ACTIVE:
            return []
        return await self.passes.passes_to_remind(run.id)

    async def claim_reminder(
        self, run_id: int, user_id: str, holder: str, gone: Collection[str] = ()
    ) -> bool:
        """Claim a member's reminder for `holder` (`REMINDER_LEASE`); False: not to send.

        False when it was sent, is no longer owed, or another holder's claim still runs;
        the claims of `gone` holders (processes known to have ended) are taken over.
        """
        lease = REMINDER_LEASE.total_seconds()
        return await self.passes.claim_member_reminder(run_id, user_id, holder, lease, gone)

    async def reminded(self, run_id: int, user_id: str) -> None:
        """Note that a member's reminder was sent: no process sends it again."""
        await self.passes.mark_member_reminded(run_id, user_id, self.core.clock())

    async def unclaim_reminder(self, run_id: int, user_id: str, holder: str) -> None:
        """Give back a claimed reminder that was not sent, for the next round to send."""
        await self.passes.release_member_reminder(run_id, user_id, holder)

    async def reminder_holders(self, run_id: int) -> list[str]:
        """The processes holding claims of a run's reminders not yet sent."""
        return await self.passes.reminder_holders(run_id)

    async def finish_reminder(self, run_id: int) -> bool:
        """Mark the run's reminder done if no member is owed it any more; whether it was now."""
        return await self.passes.finish_reminder(run_id, self.core.clock())

    async def unreachable(self, run_id: int, user_id: str) -> None:
        """Note that a member could not be messaged privately; `progress` counts them."""
        await self.passes.mark_unreachable(run_id, user_id)

    async def open_without(self, step_id: str) -> list[RunRecord]:
        """Open assignments with no message saved under `step_id`."""
        return await self.passes.open_assignments_without(step_id)

    async def closed_without(self, step_id: str) -> list[RunRecord]:
        """Assignments closed within `RESULTS_RETRY` with no message saved under `step_id`."""
        since = self.core.clock() - RESULTS_RETRY
        return await self.passes.closed_assignments_without(step_id, since)

    async def due(self) -> list[RunRecord]:
        """Assigned runs whose due time has passed and that are still open."""
        return await self.passes.due_assignments(self.core.clock())

    async def _open_assignment(self, run_id: int) -> RunRecord:
        run = assignment(await self.core.run(run_id))
        if run.state is not RunState.ACTIVE:
            raise BadInput(_(CLOSED))
        return run


PASS_HEADER = ("started_at", "finished_at")
"""An assigned run's extra export columns: when each member started and finished the lesson."""


async def pass_columns(run: RunRecord, passes: PassStorage) -> ExtraColumns:
    """An assigned run's export columns: every member who started, and when they finished."""
    held = await passes.run_passes(run.id)
    return ExtraColumns.listing(
        PASS_HEADER, (MemberCells(one.user_id, one.name, pass_times(one)) for one in held)
    )


def pass_times(held: MemberPass) -> tuple[str, str]:
    """When a member started and finished an assigned lesson (ISO 8601 UTC); empty if not."""
    finished = "" if held.finished_at is None else held.finished_at.isoformat()
    return held.started_at.isoformat(), finished


def own_buttons(
    run_id: int, step: Step, buttons: tuple[Button, ...], answered: bool = False
) -> tuple[Button, ...]:
    """A step's member buttons, with the member's own Next in place of the host's buttons.

    Once the member `answered`, the buttons the step needs only until then are left out. A
    question with longer detail gets More beside Next: it opens once the member answered.
    """
    done = kind_of(step).done_once_answered if answered else frozenset()
    own = tuple(
        button for button in buttons
        if not button.host_only and parse_address(button.address).action not in done
    )
    row = max((button.row for button in own), default=-1) + 1
    more = more_button(run_id, step.id)
    shown = any(button.address == more.address for button in own)
    beside = (replace(more, row=row),) if kind_of(step).has_more and not shown else ()
    address = button_address(run_id, step.id, Action.ONWARD)
    return (*own, *beside, Button(address, _(ONWARD_LABEL), Tone.SUCCESS, row=row))
