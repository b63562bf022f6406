"""One play session: the local player hosts and answers, simulated classmates join in."""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable
from dataclasses import dataclass

from bot.engine import LessonBotError, LessonEngine, Member, Place, Receipt, StepCard, SummaryCard
from bot.play.classmates import Classmates, make_classmates
from bot.play.console import Console, QuitLesson
from bot.play.render import paragraphs, plain, render_reveal, render_step, render_summary
from lessons.schema import FreeAnswerStep, PredictionStep, Step, VerifierStep

YOU = Member("you", "You", is_host=True)


@dataclass(frozen=True)
class PlayOptions:
    """What the player chose on the command line."""

    lesson_id: str | None = None
    seed: int = 7
    classmates: int = 12


class PlaySession:
    """Runs a whole lesson through the engine in a terminal."""

    def __init__(self, engine: LessonEngine, console: Console, options: PlayOptions) -> None:
        self.engine = engine
        self.console = console
        self.options = options
        members = make_classmates(options.classmates)
        self.classmates = Classmates(engine, members, random.Random(options.seed))

    async def run(self) -> SummaryCard:
        """Play the lesson from its first step to its summary."""
        place = Place("terminal", "local", f"play-{secrets.token_hex(4)}")
        card: StepCard | None = await self.engine.start(place, YOU, self.options.lesson_id)
        assert card is not None
        run_id = card.run_id
        self._welcome(run_id)
        try:
            while card is not None:
                card = await self._play_step(card)
        except QuitLesson:
            return await self._finish(await self.engine.stop(run_id, YOU))
        return await self._finish(await self.engine.results(run_id))

    def _welcome(self, run_id: int) -> None:
        run_lesson = self.engine.catalog.get(self.options.lesson_id)
        self.console.show(f"{run_lesson.title}  (about {run_lesson.minutes} minutes, run {run_id})")
        self.console.show(
            f"You are the host and one member; {self.options.classmates} simulated classmates "
            "(not real people) answer too, so the reveals show a real tally. Type q to stop."
        )

    async def _play_step(self, card: StepCard) -> StepCard | None:
        self.console.show("\n" + render_step(card))
        step = self.engine.catalog.get(self.options.lesson_id).step_at(card.number - 1)
        if card.takes_answers:
            await self._answer(card.run_id, step)
            await self.classmates.answer(card.run_id, step)
            _, reveal = await self.engine.reveal(card.run_id, YOU, step.id)
            self.console.show("\n" + render_reveal(reveal, len(self.classmates.members)))
        await self.console.ask("\nPress Enter to continue (q to stop): ")
        advance = await self.engine.advance(card.run_id, YOU, step.id)
        return advance.card

    async def _answer(self, run_id: int, step: Step) -> None:
        if isinstance(step, PredictionStep):
            await self._predict(run_id, step)
        elif isinstance(step, VerifierStep):
            await self._verify(run_id, step)
        elif isinstance(step, FreeAnswerStep):
            await self._solve(run_id, step)

    async def _predict(self, run_id: int, step: PredictionStep) -> None:
        for number, choice in enumerate(step.choices, start=1):
            self.console.show(f"  {number}) {plain(choice.label)}")
        picked = await self.console.ask_number(
            f"Your prediction [1-{len(step.choices)}]: ", len(step.choices)
        )
        if picked is not None:
            choice_id = step.choices[picked - 1].id
            await self._act(self.engine.choose(run_id, step.id, YOU, choice_id))

    async def _verify(self, run_id: int, step: VerifierStep) -> None:
        self.console.show("\nFirst rate each attempt as a human rater would, then run the checker.")
        for attempt in step.attempts:
            answer = await self.console.ask(f"{plain(attempt.label)}: thumbs up or down? [u/d] ")
            if answer.lower()[:1] not in ("u", "d"):
                continue
            up = answer.lower().startswith("u")
            await self._act(self.engine.rate(run_id, step.id, YOU, attempt.id, up))
            await self._act(self.engine.run_checker(run_id, step.id, YOU, attempt.id))

    async def _solve(self, run_id: int, step: FreeAnswerStep) -> None:
        while True:
            text = await self.console.ask("Your answer (Enter to move on): ")
            if not text:
                return
            receipt = await self._act(self.engine.submit_answer(run_id, step.id, YOU, text))
            if receipt is not None and receipt.reward:
                return

    async def _act(self, action: Awaitable[Receipt]) -> Receipt | None:
        """Await an engine call and show its receipt, or its refusal, to the player."""
        try:
            receipt = await action
        except LessonBotError as error:
            self.console.show(str(error))
            return None
        self.console.show(paragraphs(receipt.text))
        return receipt

    async def _finish(self, summary: SummaryCard) -> SummaryCard:
        self.console.show("\n" + render_summary(summary))
        lesson = self.engine.catalog.get(self.options.lesson_id)
        if lesson.disclaimer:
            self.console.show("\n" + paragraphs(lesson.disclaimer))
        return summary
