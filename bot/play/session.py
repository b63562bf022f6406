"""One play session: the local player hosts and answers, simulated classmates join in.

Everyone acts through the shared service, as members on Discord or Slack do: clicks on the
addresses of the posted card's buttons, answers through the answer form's address, and the
host's `reveal`, `next` and `stop` verbs. The terminal is the surface the steps are shown on.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.engine import Action, Address, LessonEngine
from bot.i18n import N_, _
from bot.model import Place, StepCard
from bot.play.classmates import (
    Classmates,
    Labelled,
    buttons_for,
    choices_read,
    learning_assumptions,
    make_classmates,
    switch_assumption,
)
from bot.play.console import MAX_UNUSABLE, Console, QuitLesson, skipped
from bot.play.effects import Shown, shown_by
from bot.play.markup import plain
from bot.play.render import TerminalSurface, paragraphs
from bot.service import Actor, CommandArgs, LessonService, Outcome, Presenter, fixed_rights
from lessons.reading import reading_minutes
from lessons.schema import Lesson, Step

PLATFORM = "terminal"
THUMBS = {Action.UP: (N_("u"), N_("up")), Action.DOWN: (N_("d"), N_("down"))}
"""Each thumb: the letter a player types for it and its word, both in the player's language."""
RATE_THE_REST = N_(
    "The checker opens once every attempt is rated. Rate the ones you skipped, or press Enter "
    "again to go on without the checker."
)
UNRATED = N_(
    "You skipped a rating again, so this step goes on without the checker for you. The "
    "results show the channel's thumbs-ups beside the checker's rewards."
)
REASON_PROMPT = N_("{label} [Enter to skip]: ")
REASON_NEEDED_PROMPT = N_("{label} [needed to go on]: ")
REASON_NEEDED = N_("A reason is needed here before you go on: write one sentence.")
NEXT_PROMPT = N_("Press Enter to continue (q to stop): ")
"""Asked after a blank line, as `next_prompt()` does."""
MORE_PROMPT = N_("Press Enter to continue (m for more, q to stop): ")


@dataclass(frozen=True)
class PlayOptions:
    """What the player chose on the command line."""

    lesson_id: str | None = None
    seed: int = 7
    classmates: int = 12
    charts: Path | None = None
    assigned: bool = False
    recall: bool = False
    """Take a run's delayed recall check now (`--recall`) instead of playing the lesson."""
    language: str | None = None
    """The run's language (`--lang es`); None for the lesson's own."""
    run: int | None = None
    """With `recall`, the run whose check to take (`--run`); None for the latest played."""


class PlaySession:
    """Runs a whole lesson through the shared service in a terminal."""

    def __init__(
        self,
        engine: LessonEngine,
        console: Console,
        options: PlayOptions,
    ) -> None:
        self.engine = engine
        self.console = console
        self.options = options
        lesson = self.lesson()
        self.assumed = learning_assumptions(lesson) if options.classmates else {}
        self.surface = TerminalSurface(
            console.show, options.classmates, options.charts, self.assumed
        )
        self.service = play_service(engine, self.surface)
        self.place = Place(PLATFORM, "local", f"play-{secrets.token_hex(4)}")
        self.you = player(self.place)
        members = make_classmates(options.classmates, self.place)
        self.classmates = Classmates(self.service, members, random.Random(options.seed))

    async def run(self) -> None:
        """Play the lesson from its first step to its results."""
        self._welcome()
        asked = CommandArgs(lesson=self.options.lesson_id, language=self.options.language)
        started = await self._host("start", asked)
        if started.refused:
            return
        try:
            while (card := self.surface.latest_step) is not None:
                self.surface.latest_step = None
                await self._play_step(card)
        except QuitLesson:
            await self._host("stop")
        self._farewell()

    def lesson(self) -> Lesson:
        """The lesson played, in the language asked for (else its own)."""
        return self.engine.catalog.get(self.options.lesson_id, self.options.language)

    def _welcome(self) -> None:
        lesson = self.lesson()
        self.console.show(title_line(lesson.title, reading_minutes(lesson)))
        welcome = welcome_text(self.options.classmates, tuple(self.assumed.values()))
        self.console.show(paragraphs(welcome))

    async def _play_step(self, card: StepCard) -> None:
        if card.takes_answers:
            step = self._step(card)
            await self._answer(card)
            await self.classmates.answer(card, step)
            await self._host("reveal")
            if (again := self._second_vote(card)) is not None:
                await self._answer(again)
                headings = [reason.heading for reason in self.surface.reasons.get(step.id, [])]
                read = choices_read(headings, step.crowd().choices)
                await self.classmates.answer(again, step, read)
                self._note_shift(step)
                await self._host("reveal")
        more_prompt = "\n" + _(MORE_PROMPT)
        while self.surface.more and await self.console.ask_enter(more_prompt, more=True):
            await self._shown(await self.service.click(self.you, self.surface.more))
        if not self.surface.more:
            await self.console.ask_enter(next_prompt())
        await self._host("next")

    def _step(self, card: StepCard) -> Step:
        return self.lesson().step_by_id(card.step_id)

    def _second_vote(self, card: StepCard) -> StepCard | None:
        """The card of a second vote on the card's question, if its reveal opened one."""
        latest = self.surface.latest_step
        if latest is None or latest.step_id != card.step_id:
            return None
        if not buttons_for(latest, Action.AGAIN):
            return None
        self.surface.latest_step = None
        return latest

    def _note_shift(self, step: Step) -> None:
        """Have the question's results say what the classmates were assumed to do, and did."""
        crowd = step.crowd()
        if crowd.right is None or crowd.switch is None or not self.classmates.members:
            return
        shift = self.classmates.shift(step.id, crowd.right.id)
        self.surface.assumed[step.id] = f"{switch_assumption(crowd.switch)}\n\n{shift.text()}"

    async def _answer(self, card: StepCard) -> None:
        """Answer with the card's own buttons: its choices (and why), its attempts, or its box."""
        if choices := buttons_for(card, Action.CHOOSE):
            asks_why = bool(buttons_for(card, Action.WHY))
            prompt = _("Your answer") if asks_why else _("Your prediction")
            if await self._predict(card, choices, Action.CHOOSE, prompt) and asks_why:
                await self._reason(card)
        elif choices := buttons_for(card, Action.AGAIN):
            self.console.show()
            await self._predict(card, choices, Action.AGAIN, _("Your answer now"))
        elif buttons_for(card, Action.WHY):
            await self._reason(card)
        elif attempts := buttons_for(card, Action.UP):
            await self._verify(card, attempts)
        else:
            await self._solve(card)

    async def _predict(
        self, card: StepCard, choices: list[Labelled], action: Action, prompt: str
    ) -> bool:
        """Pick one of the choices with `action`; whether one was picked."""
        for number, choice in enumerate(choices, start=1):
            self.console.show(f"  {number}) {plain(choice.label)}")
        picked = await self.console.ask_number(prompt, len(choices))
        if picked is not None:
            await self._click(card, action, choices[picked - 1].id)
        return picked is not None

    async def _reason(self, card: StepCard) -> None:
        """Write a reason for the answer into the form the card's reason button opens.

        The prompt asks what the form asks; Enter skips it unless the step needs the reason.
        """
        form = (await self._click(card, Action.WHY)).form
        if form is None:
            return
        needed = await self._reason_needed(card)
        prompt = _(REASON_NEEDED_PROMPT if needed else REASON_PROMPT, label=form.form.label)
        for _tried in range(MAX_UNUSABLE):
            text = await self.console.ask(prompt)
            if not text and not needed:
                return
            if not text:
                self.console.show(_(REASON_NEEDED))
                continue
            outcome = await self.service.answer(self.you, form.address.encode(), text)
            if not (await self._shown(outcome)).refused:
                await self._keep_own_reasons(card)
                return
        self.console.show(skipped())

    async def _reason_needed(self, card: StepCard) -> bool:
        """Whether the step waits for your reason before you go on: live, it may be skipped."""
        return False

    async def _keep_own_reasons(self, card: StepCard) -> None:
        """Let the terminal know your reasons at the step, to show them back as yours."""
        stored = await self.engine.store.member_reasons(
            card.run_id, card.step_id, self.you.user_id
        )
        self.surface.own_reasons.update(stored.values())

    async def _verify(self, card: StepCard, attempts: list[Labelled]) -> None:
        """Rate each attempt, then run the checker on each: only once every one is rated.

        The attempts skipped are asked once more; skipped again, the step goes on unchecked.
        """
        unrated = [attempt for attempt in attempts if not await self._rated(card, attempt)]
        if unrated:
            self.console.show(paragraphs(_(RATE_THE_REST)))
            unrated = [attempt for attempt in unrated if not await self._rated(card, attempt)]
        if unrated:
            self.console.show(paragraphs(_(UNRATED)))
            return
        for attempt in attempts:
            checked = await self._click(card, Action.CHECK, attempt.id)
            if checked.reward is None:
                return

    async def _rated(self, card: StepCard, attempt: Labelled) -> bool:
        """Ask for a thumbs-up or down on one attempt; whether the player gave one."""
        question = _("{attempt}: thumbs up or down?", attempt=plain(attempt.label))
        thumbs = {_(letter): action for action, (letter, _word) in THUMBS.items()}
        words = {_(letter): _(word) for letter, word in THUMBS.values()}
        answer = await self.console.ask_choice(question, words)
        if answer not in thumbs:
            return False
        await self._click(card, thumbs[answer], attempt.id)
        return True

    async def _solve(self, card: StepCard) -> None:
        form = (await self._click(card, Action.ANSWER)).form
        refused = 0
        while form is not None and refused < MAX_UNUSABLE:
            text = await self.console.ask(_("Your answer [Enter to move on]: "))
            if not text:
                return
            outcome = await self.service.answer(self.you, form.address.encode(), text)
            graded = await self._shown(outcome)
            if graded.reward or graded.tries_left == 0:
                return
            refused += graded.reward is None
        if refused == MAX_UNUSABLE:
            self.console.show(skipped())

    async def _click(self, card: StepCard, action: Action, arg: str = "") -> Shown:
        address = Address(card.run_id, card.step_id, action, arg).encode()
        return await self._shown(await self.service.click(self.you, address))

    async def _host(self, verb: str, args: CommandArgs | None = None) -> Shown:
        return await self._shown(await self.service.command(self.you, verb, args or CommandArgs()))

    async def _shown(self, outcome: Outcome) -> Shown:
        """Show the channel's updates, then print what the player was told."""
        shown = await shown_by(await outcome.shown())
        for text in shown.texts:
            self.console.show(paragraphs(text))
        return shown

    def _farewell(self) -> None:
        lesson = self.lesson()
        if lesson.disclaimer:
            self.console.show("\n" + paragraphs(lesson.disclaimer))
        if self.surface.saved:
            folder = self.surface.saved[0].parent
            saved = len(self.surface.saved)
            self.console.show(
                "\n" + _("{count} charts saved as PNG in {folder}/", count=saved, folder=folder)
            )


def play_service(engine: LessonEngine, surface: TerminalSurface) -> LessonService:
    """The shared service with the terminal as its surface, revealing without waiting."""
    return LessonService(engine, Presenter(engine, surface), reveal_waits=False)


def player(place: Place) -> Actor:
    """You, the local player: the host and one member, in `place`."""
    return Actor("you", "You", place, fixed_rights(True))


def next_prompt() -> str:
    """The prompt to go on to the next step, after a blank line."""
    return "\n" + _(NEXT_PROMPT)


def title_line(title: str, minutes: int) -> str:
    """The lesson's title and how long it takes to read, as play mode opens."""
    return _("{title}  (about {minutes} minutes)", title=title, minutes=minutes)


def welcome_text(simulated: int, assumed: Sequence[str] = ()) -> str:
    """Who answers in play mode, and what the simulated classmates are assumed to do."""
    if not simulated:
        return _("You are the host and the only member. Type q at any prompt to stop.")
    return " ".join([
        _(
            "You are the host and one member. {count} simulated classmates answer too. They "
            "are not real people: their answers follow the weights the lesson's author set, "
            "and every tally says how many of its answers are simulated.",
            count=simulated,
        ),
        *assumed,
        _("Each question is revealed as soon as everyone has answered. Type q at any prompt "
          "to stop."),
    ])
