"""Play mode's delayed recall: after the lesson, a preview of the check; later, the check taken.

On Discord or Slack, days after a lesson each member who answered gets a private check of its
key ideas, and once the checks close the channel sees what it kept. `play --recall` takes the
check of a run played before in the same database (the latest, or `--run N`) through the same
engine and cards, without playing the lesson again: it sets the play clock to the check's time,
you answer yours, the run's simulated classmates answer theirs by an assumed forgetting rate
(`KEPT`, `LEARNED`), it moves the clock past the checks' close, and shows the channel's post
(`kept_card`), labelled as a simulation.
"""

from __future__ import annotations

import contextlib
import random
import re
import textwrap
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.engine import Action, Address, Clock, LessonEngine, span_text, utc_now
from bot.i18n import N_, SOURCE_LANGUAGE, _, current_language, percent
from bot.model import RecallCheck, RecallRound, RunRecord, StepCard, SummaryCard, UnknownLesson
from bot.play.classmates import buttons_for, make_classmates
from bot.play.console import Console, QuitLesson
from bot.play.effects import shown_by
from bot.play.markup import plain
from bot.play.render import WIDTH, TerminalSurface, paragraphs, rule, series_lines
from bot.play.session import PLATFORM, PlayOptions, PlaySession, play_service, player
from bot.service import Actor
from bot.service.recalls import check_card, kept_card
from lessons.schema import Choice, LaterQuestion, Lesson

KEPT = 0.7
"""Play's assumption: the chance a classmate right at the lesson is right at the check."""
LEARNED = 0.1
"""Play's assumption: the chance a classmate wrong (or silent) at the lesson is right at it."""
TAKE_IT_NOW = N_("Take the check now, with the simulated classmates: lessonbot play {flags}")
NO_QUESTIONS = N_("This lesson has no delayed-recall questions, so there is no check to take.")
RECALL_OFF = N_(
    "This run has no delayed recall (RECALL_AFTER=off), so there is no check to take."
)
NO_RUN = N_(
    "No lesson played in the terminal is stored in this database, so there is no check to "
    "take. Play one first: lessonbot play"
)
NO_SUCH_RUN = N_("There is no run {run} in this database.")
NOT_PLAYED_HERE = N_(
    "Run {run} was not played in the terminal, so play does not take its checks."
)
NOT_ENDED = N_("Run {run} has not ended, so its check is not due.")
LESSON_NOT_LOADED = N_(
    "Run {run} follows the lesson {lesson}, which is not loaded here: name its file with "
    "--lesson FILE."
)
TAKEN = N_(
    "The check of run {run} was already taken. Its answers as CSV: lessonbot export --run {run}"
)
TAKING = N_("The delayed recall check of run {run}: {title}")
MOST_CLASSMATES = 200
"""The most simulated classmates a play run has (`--classmates`)."""
ALL_DUE = 10_000
"""How many due checks to list at once: all of a play run's, beside other runs' in the file."""
CHANNEL_LINK = re.compile(r"<#[^>]+>")


class MovableClock(Protocol):
    """The engine's clock, which play moves on by hand to reach a check days away."""

    def __call__(self) -> datetime:
        """The time now, as the engine sees it."""
        ...

    def advance(self, seconds: float) -> None:
        """Move the time on (back, for a negative `seconds`)."""
        ...


class ShiftedClock:
    """The real time, moved on by hand: how play reaches a check due days after the lesson."""

    def __init__(self, base: Clock = utc_now) -> None:
        self.base = base
        self.offset = timedelta()

    def __call__(self) -> datetime:
        """The real time plus the offset moved so far."""
        return self.base() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the time on by `seconds`."""
        self.offset += timedelta(seconds=seconds)


def move_to(clock: MovableClock, moment: datetime) -> None:
    """Move the clock on to `moment`, unless it is there already."""
    clock.advance(max(0.0, (moment - clock()).total_seconds()))


def set_to(clock: MovableClock, moment: datetime) -> None:
    """Set the clock to `moment`, on or back: a check's time, whenever its run was played."""
    clock.advance((moment - clock()).total_seconds())


def later_choice(rng: random.Random, question: LaterQuestion, right_then: bool) -> Choice:
    """A simulated classmate's answer at the check, by the assumed forgetting rate."""
    if rng.random() < (KEPT if right_then else LEARNED):
        return question.correct_choice
    return rng.choice([choice for choice in question.choices if not choice.correct])


def simulation_note(classmates: int, you_counted: bool) -> str:
    """Whose answers the kept figures count in play mode, and the rates assumed for the rest.

    `you_counted`: whether you answered any question of your check.
    """
    if not classmates:
        if you_counted:
            return _("Counted here: only your answers.")
        return _("No one is counted here: there are no simulated classmates, and you answered "
                 "no question of a check.")
    if you_counted:
        whose = _("A simulation: every member counted here but you is one of {count} simulated "
                  "classmates, not real people.", count=classmates)
    else:
        whose = _("A simulation: you answered no question of a check, so every member counted "
                  "here is one of {count} simulated classmates, not real people.",
                  count=classmates)
    rates = _(
        "Their answers at the check follow rates play assumes, not measured ones: right again "
        "with a {kept} chance if right at the lesson, right with a {learned} chance if wrong "
        "there, else a wrong choice at random.", kept=percent(KEPT), learned=percent(LEARNED),
    )
    return f"{whose} {rates}"


def preview_text(lesson: Lesson, plan: tuple[int, ...], run_id: int) -> str:
    """What the delayed recall would ask, without its answers, and how to take it now."""
    when = _(" and again ").join(span_text(delay) for delay in plan)
    asked = lesson.delayed_recall
    head = _("Later: {when} after the lesson, each member who answered would get these "
             "{count} questions privately on Discord or Slack:", when=when, count=len(asked))
    questions = [
        textwrap.fill(f"{number}. {' '.join(plain(q.text).split())}", WIDTH,
                      subsequent_indent="   ")
        for number, q in enumerate(asked, start=1)
    ]
    flags = f"--recall --run {run_id}"
    if current_language() != SOURCE_LANGUAGE:
        flags = f"--lang {current_language()} {flags}"
    return "\n".join([paragraphs(head), *questions, "", _(TAKE_IT_NOW, flags=flags)])


async def preview_after(session: PlaySession) -> None:
    """After a played lesson, what its delayed recall would ask; nothing if it has none."""
    run_id = session.surface.run_id
    run = await session.engine.run(run_id) if run_id is not None else None
    lesson = session.lesson()
    if run is not None and run.recall_plan and lesson.delayed_recall:
        session.console.show("\n" + preview_text(lesson, run.recall_plan, run.id))


def render_check(card: StepCard, printed: Collection[str] = ()) -> str:
    """A member's recall check as the terminal shows it: its text, then the question, if any.

    The check's message is redrawn after each answer, with every verdict so far; a terminal
    keeps what it printed, so the paragraphs in `printed` are left out.
    """
    new = [text for text in card.body.split("\n\n") if text not in printed]
    parts = [paragraphs(CHANNEL_LINK.sub(_("this terminal"), "\n\n".join(new)))] if new else []
    for section in card.sections:
        asked = _("Question {number} of {total}:", number=card.number, total=card.total)
        parts += ["", asked, paragraphs(section.text)]
    return "\n".join(parts)


def render_kept(card: SummaryCard, note: str) -> str:
    """The channel's post of what it kept: its lines, its chart as text, then whose they are."""
    parts = [rule(plain(card.title)), *(paragraphs(line) for line in card.lines)]
    if card.chart is not None:
        parts += ["", *series_lines(card.chart)]
    return "\n".join([*parts, "", paragraphs(note)])


async def take_recall(
    engine: LessonEngine, console: Console, options: PlayOptions, clock: MovableClock
) -> int | None:
    """`play --recall`: a stored run's delayed recall check taken now; the run's id, if taken.

    The run is `options.run`, else the latest played in the terminal; where there is no check
    to take, why not.
    """
    run = await _run_to_recall(engine, options.run)
    if run is None:
        console.show(_(NO_RUN) if options.run is None else _(NO_SUCH_RUN, run=options.run))
        return None
    if (why_not := await _why_no_check(engine, run)) is not None:
        console.show(_(why_not, run=run.id, lesson=run.lesson_id))
        return None
    later = LaterPlay(engine, console, run, clock, random.Random(options.seed))
    with contextlib.suppress(QuitLesson):
        await later.take()
    return run.id


async def _run_to_recall(engine: LessonEngine, run_id: int | None) -> RunRecord | None:
    if run_id is None:
        return await engine.latest_run(PLATFORM)
    return await engine.run(run_id)


async def _why_no_check(engine: LessonEngine, run: RunRecord) -> str | None:
    """Why a run has no check for play to take now (a message to fill), or None: it has."""
    if run.place.platform != PLATFORM:
        return NOT_PLAYED_HERE
    try:
        lesson = engine.lesson_of(run)
    except UnknownLesson:
        return LESSON_NOT_LOADED
    if not lesson.delayed_recall:
        return NO_QUESTIONS
    if not run.recall_plan:
        return RECALL_OFF
    if run.ended_at is None:
        return NOT_ENDED
    await engine.recall.plan_run(run)
    progress = await engine.recall.progress(run.id)
    return TAKEN if progress.planned and progress.sent == progress.planned else None


class LaterPlay:
    """A run's delayed recall taken in the terminal: your check, the classmates', the post."""

    def __init__(
        self, engine: LessonEngine, console: Console, run: RunRecord, clock: MovableClock,
        rng: random.Random,
    ) -> None:
        """`clock` is the engine's, set on to each check; `rng` draws the classmates' answers."""
        self.engine = engine
        self.console = console
        self.run = run
        self.clock = clock
        self.rng = rng
        self.recall = engine.recall
        self.show = console.show
        self.service = play_service(engine, TerminalSurface(console.show, 0))
        self.you = player(run.place)
        self.lesson = engine.lesson_of(run)
        self.you_counted = False
        """Whether you answered a question of your check this round."""

    async def take(self) -> None:
        """Each round of the run's recall: the checks sent, answered, and the channel's post."""
        run = self.run
        assert run.ended_at is not None
        self.show(rule(_(TAKING, run=run.id, title=plain(self.lesson.title))))
        for number, delay in enumerate(run.recall_plan, start=1):
            due = run.ended_at + timedelta(seconds=delay)
            set_to(self.clock, due)
            checks = await self._send(number)
            classmates = self._classmates(checks)
            self._intro(delay, len(classmates))
            mine = next((c for c in checks if c.user_id == self.you.user_id), None)
            self.you_counted = False
            if mine is None:
                self.show(_("You answered nothing at the lesson, so no check comes to you."))
            else:
                await self._answer(mine)
            await self._classmates_answer(classmates)
            move_to(self.clock, due + self.recall.window)
            await self._post(number, len(classmates))

    def _intro(self, delay: int, classmates: int) -> None:
        later = span_text(delay)
        self.show("\n" + rule(_("{later} later (simulated time)", later=later)))
        if classmates:
            intro = _(
                "Play sets its clock to {later} after the lesson. On Discord or Slack, each "
                "member who answered the lesson now gets a private check of its key ideas; here "
                "is yours, and the {count} simulated classmates take theirs.",
                later=later, count=classmates,
            )
        else:
            intro = _(
                "Play sets its clock to {later} after the lesson. On Discord or Slack, each "
                "member who answered the lesson now gets a private check of its key ideas; here "
                "is yours.", later=later,
            )
        self.show(paragraphs(intro))

    async def _send(self, number: int) -> list[RecallCheck]:
        """The run's due checks of round `number`, each claimed and noted as sent."""
        holder = self.service.presenter.turns.holder
        due = await self.recall.due_checks(ALL_DUE, PLATFORM)
        sent = []
        for check in (c for c in due if c.run_id == self.run.id and c.round == number):
            if await self.recall.claim(check, holder):
                await self.recall.sent(check, True)
                sent.append(check)
        return sent

    def _classmates(self, checks: Sequence[RecallCheck]) -> list[Actor]:
        """The simulated classmates a check was sent to, as the members they were at the lesson."""
        checked = {check.user_id for check in checks}
        return [m for m in make_classmates(MOST_CLASSMATES, self.run.place) if m.user_id in checked]

    async def _answer(self, check: RecallCheck) -> None:
        """You answer your check question by question, told right or not after each."""
        first = check_card(await self.recall.view(check))
        self.show("\n" + rule(plain(first.title)))
        card: StepCard | None = first
        printed: set[str] = set()
        while card is not None:
            self.show(render_check(card, printed))
            printed.update(card.body.split("\n\n"))
            card = await self._answer_question(card)

    async def _answer_question(self, card: StepCard) -> StepCard | None:
        """Your answer to the card's question, by number; the check after it (None: done)."""
        choices = buttons_for(card, Action.RECALL)
        if not choices:
            return None
        for number, choice in enumerate(choices, start=1):
            self.show(f"  {number}) {plain(choice.label)}")
        picked = await self.console.ask_number(_("Your answer"), len(choices))
        if picked is None:
            self.show(_("The rest of your check is left unanswered."))
            return None
        address = Address(card.run_id, card.step_id, Action.RECALL, choices[picked - 1].id)
        outcome = await self.service.click(self.you, address.encode())
        self.you_counted = True
        shown = await shown_by(await outcome.shown())
        if shown.check is None:
            self.show(paragraphs(shown.told))
        return shown.check

    async def _classmates_answer(self, classmates: Sequence[Actor]) -> None:
        """Each simulated classmate answers their check by the assumed forgetting rate."""
        for member in classmates:
            for question in self.lesson.delayed_recall:
                right_then = await self.recall.right_then(self.run, question, member.user_id)
                choice = later_choice(self.rng, question, bool(right_then))
                address = Address(self.run.id, question.id, Action.RECALL, choice.id).encode()
                await (await self.service.click(member, address)).shown()

    async def _post(self, number: int, classmates: int) -> None:
        """The channel's post of what round `number` kept, once every check of it has closed."""
        window = span_text(int(self.recall.window.total_seconds()))
        self.show("\n" + paragraphs(_(
            "Each check closes {window} after it comes. Play moves its clock on again, and the "
            "channel gets this post:", window=window,
        )))
        holder = self.service.presenter.turns.holder
        for recall_round in await self._rounds(number):
            if not await self.recall.claim_round(recall_round, holder):
                continue
            kept = await self.recall.kept(recall_round)
            if kept is not None:
                note = simulation_note(classmates, self.you_counted)
                self.show("\n" + render_kept(kept_card(kept), note))
                await self.recall.round_posted(kept)

    async def _rounds(self, number: int) -> Sequence[RecallRound]:
        due = await self.recall.rounds_due(PLATFORM)
        return [r for r in due if (r.run_id, r.round) == (self.run.id, number)]
