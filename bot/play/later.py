"""Play mode's delayed recall: after the lesson, a preview of the check, or the check taken now.

On Discord or Slack, days after a lesson each member who answered gets a private check of its
key ideas, and once the checks close the channel sees what it kept. `play --recall` plays
that through the same engine and cards: it moves the play clock on to the check, you answer
yours, the simulated classmates answer theirs by an assumed forgetting rate (`KEPT`,
`LEARNED`), it moves the clock past the checks' close, and shows the channel's post
(`kept_card`), labelled as a simulation.
"""

from __future__ import annotations

import contextlib
import random
import re
import textwrap
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Protocol

from bot.engine import Action, Address, Clock, right_at_lesson, span_text, utc_now
from bot.i18n import N_, SOURCE_LANGUAGE, _, current_language, percent
from bot.model import RecallCheck, RecallRound, RunRecord, StepCard, SummaryCard
from bot.play.classmates import buttons_for
from bot.play.console import QuitLesson
from bot.play.markup import plain
from bot.play.render import WIDTH, paragraphs, rule, series_lines
from bot.service.recalls import check_card, kept_card
from lessons.schema import Choice, LaterQuestion, Lesson

if TYPE_CHECKING:
    from bot.play.session import PlaySession

KEPT = 0.7
"""Play's assumption: the chance a classmate right at the lesson is right at the check."""
LEARNED = 0.1
"""Play's assumption: the chance a classmate wrong (or silent) at the lesson is right at it."""
TAKE_IT_NOW = N_("Take the check now, with the simulated classmates: lessonbot play {flags}")
NO_QUESTIONS = N_("This lesson has no delayed-recall questions, so there is no check to take.")
RECALL_OFF = N_(
    "This run has no delayed recall (RECALL_AFTER=off), so there is no check to take."
)
ALL_DUE = 10_000
"""How many due checks to list at once: all of a play run's, beside other runs' in the file."""
CHANNEL_LINK = re.compile(r"<#[^>]+>")


class MovableClock(Protocol):
    """The engine's clock, which play moves on by hand to reach a check days away."""

    def __call__(self) -> datetime:
        """The time now, as the engine sees it."""
        ...

    def advance(self, seconds: float) -> None:
        """Move the time on."""
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


def later_choice(rng: random.Random, question: LaterQuestion, right_then: bool) -> Choice:
    """A simulated classmate's answer at the check, by the assumed forgetting rate."""
    if rng.random() < (KEPT if right_then else LEARNED):
        return question.correct_choice
    return rng.choice([choice for choice in question.choices if not choice.correct])


def simulation_note(classmates: int) -> str:
    """Whose answers the kept figures count in play mode, and the rates assumed for the rest."""
    if not classmates:
        return _("Counted here: only your answers.")
    return _(
        "A simulation: every member counted here but you is one of {count} simulated "
        "classmates, not real people. Their answers at the check follow rates play assumes, "
        "not measured ones: right again with a {kept} chance if right at the lesson, right "
        "with a {learned} chance if wrong there, else a wrong choice at random.",
        count=classmates, kept=percent(KEPT), learned=percent(LEARNED),
    )


def preview_text(lesson: Lesson, plan: tuple[int, ...], assigned: bool = False) -> str:
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
    flags = "--assigned --recall" if assigned else "--recall"
    if current_language() != SOURCE_LANGUAGE:
        flags = f"--lang {current_language()} {flags}"
    return "\n".join([paragraphs(head), *questions, "", _(TAKE_IT_NOW, flags=flags)])


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


class LaterPlay:
    """The delayed recall after a play session's lesson: previewed, or (`--recall`) taken now."""

    def __init__(self, session: PlaySession, clock: MovableClock | None) -> None:
        """`clock` is the engine's: `--recall` moves it on; without one, only the preview."""
        self.session = session
        self.clock = clock
        self.recall = session.engine.recall
        self.show = session.console.show

    async def after_lesson(self) -> None:
        """Preview the check, or take it now; nothing when the run has no delayed recall."""
        run_id, options = self.session.surface.run_id, self.session.options
        run = await self.session.engine.run(run_id) if run_id is not None else None
        if run is None:
            return
        if not run.recall_plan or not self._lesson.delayed_recall:
            if options.recall:
                self.show("\n" + _(RECALL_OFF if self._lesson.delayed_recall else NO_QUESTIONS))
        elif options.recall and self.clock is not None:
            with contextlib.suppress(QuitLesson):
                await self.take(run, self.clock)
        else:
            self.show("\n" + preview_text(self._lesson, run.recall_plan, options.assigned))

    @property
    def _lesson(self) -> Lesson:
        return self.session.lesson()

    async def take(self, run: RunRecord, clock: MovableClock) -> None:
        """Each round of the run's recall: the checks sent, answered, and the channel's post."""
        assert run.ended_at is not None
        await self.recall.plan_run(run)
        for number, delay in enumerate(run.recall_plan, start=1):
            due = run.ended_at + timedelta(seconds=delay)
            self._intro(delay)
            move_to(clock, due)
            checks = await self._send(run.id, number)
            mine = next((c for c in checks if c.user_id == self.session.you.user_id), None)
            if mine is None:
                self.show(_("You answered nothing at the lesson, so no check comes to you."))
            else:
                await self._answer(mine)
            await self._classmates_answer(run.id)
            move_to(clock, due + self.recall.window)
            await self._post(run.id, number)

    def _intro(self, delay: int) -> None:
        later = span_text(delay)
        classmates = len(self.session.classmates.members)
        self.show("\n" + rule(_("{later} later (simulated time)", later=later)))
        if classmates:
            intro = _(
                "Play moves its clock {later} on. On Discord or Slack, each member who answered "
                "the lesson now gets a private check of its key ideas; here is yours, and the "
                "{count} simulated classmates take theirs.", later=later, count=classmates,
            )
        else:
            intro = _(
                "Play moves its clock {later} on. On Discord or Slack, each member who answered "
                "the lesson now gets a private check of its key ideas; here is yours.",
                later=later,
            )
        self.show(paragraphs(intro))

    async def _send(self, run_id: int, number: int) -> list[RecallCheck]:
        """The run's due checks of round `number`, each claimed and noted as sent."""
        holder = self.session.service.presenter.turns.holder
        due = await self.recall.due_checks(ALL_DUE, self.session.place.platform)
        sent = []
        for check in (c for c in due if c.run_id == run_id and c.round == number):
            if await self.recall.claim(check, holder):
                await self.recall.sent(check, True)
                sent.append(check)
        return sent

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
        picked = await self.session.console.ask_number(_("Your answer"), len(choices))
        if picked is None:
            self.show(_("The rest of your check is left unanswered."))
            return None
        address = Address(card.run_id, card.step_id, Action.RECALL, choices[picked - 1].id)
        outcome = await self.session.service.click(self.session.you, address.encode())
        if not isinstance(outcome.redraw, StepCard):
            self.show(paragraphs(str(outcome.reply)))
            return None
        return outcome.redraw

    async def _classmates_answer(self, run_id: int) -> None:
        """Each simulated classmate answers their check by the assumed forgetting rate."""
        classmates = self.session.classmates
        for member in classmates.members:
            for question in self._lesson.delayed_recall:
                right_then = self._right_then(member.user_id, question)
                choice = later_choice(classmates.rng, question, right_then)
                address = Address(run_id, question.id, Action.RECALL, choice.id).encode()
                await (await self.session.service.click(member, address)).shown()

    def _right_then(self, user_id: str, question: LaterQuestion) -> bool:
        """Whether a classmate's last answer at the lesson to the question's idea was right."""
        answer_at = partial(self.session.classmates.last_answer, user_id)
        return bool(right_at_lesson(self._lesson, question, answer_at))

    async def _post(self, run_id: int, number: int) -> None:
        """The channel's post of what round `number` kept, once every check of it has closed."""
        window = span_text(int(self.recall.window.total_seconds()))
        self.show("\n" + paragraphs(_(
            "Each check closes {window} after it comes. Play moves its clock on again, and the "
            "channel gets this post:", window=window,
        )))
        holder = self.session.service.presenter.turns.holder
        for recall_round in await self._rounds(run_id, number):
            if not await self.recall.claim_round(recall_round, holder):
                continue
            kept = await self.recall.kept(recall_round)
            if kept is not None:
                note = simulation_note(len(self.session.classmates.members))
                self.show("\n" + render_kept(kept_card(kept), note))
                await self.recall.round_posted(kept)

    async def _rounds(self, run_id: int, number: int) -> Sequence[RecallRound]:
        due = await self.recall.rounds_due(self.session.place.platform)
        return [r for r in due if (r.run_id, r.round) == (run_id, number)]
