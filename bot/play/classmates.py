"""Simulated classmates: seeded members who click the posted buttons like real ones would."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import Action, Address
from bot.model import Place, StepCard
from bot.service import Actor, LessonService
from lessons.schema import Choice, FreeAnswerStep, Lesson, PredictionStep, Step, VerifierStep

NAMES = (
    "Ada",
    "Grace",
    "Alan",
    "Edsger",
    "Barbara",
    "Donald",
    "Frances",
    "Claude",
    "Margaret",
    "John",
    "Katherine",
    "Dennis",
    "Radia",
    "Ken",
    "Sophie",
    "Tim",
    "Hedy",
    "Linus",
)
RETRY_CHANCE = 0.6


def make_classmates(count: int, place: Place) -> list[Actor]:
    """`count` simulated members in `place`, labelled as such in their names."""
    return [
        Actor(f"sim-{index + 1:02d}", f"{NAMES[index % len(NAMES)]} (simulated)", place)
        for index in range(count)
    ]


def learns(step: PredictionStep) -> bool:
    """Whether the lesson says how simulated classmates learn by this question asked again."""
    return bool(step.recall) and (step.learned is not None or step.kept is not None)


def learning_assumption(step: PredictionStep) -> str:
    """What the simulated classmates are assumed to do when `step` asks a question again."""
    wrong = (
        f"one who was wrong moves to the right answer with a {step.learned:.0%} chance, "
        "else keeps their answer"
        if step.learned is not None
        else "one who was wrong answers by the lesson's weights again"
    )
    right = (
        f"one who was right keeps it with a {step.kept:.0%} chance"
        if step.kept is not None
        else "one who was right answers by the lesson's weights again"
    )
    return (
        "Assumption for the simulated classmates, set by the lesson's author: asked a question "
        f"again, each remembers their first answer; {wrong}; {right}."
    )


def learning_assumptions(lesson: Lesson) -> dict[str, str]:
    """The learning assumption of each recall step that sets one, by step id."""
    return {
        step.id: learning_assumption(step)
        for step in lesson.steps
        if isinstance(step, PredictionStep) and learns(step)
    }


@dataclass
class Classmates:
    """Simulated members answering every step through the service, like real ones.

    Each remembers their answer to every question, so a recall can build on it.
    """

    service: LessonService
    members: list[Actor]
    rng: random.Random
    chosen: dict[tuple[str, str], str] = field(default_factory=dict)

    async def answer(self, card: StepCard, step: Step) -> None:
        """Have every classmate answer the step the card shows."""
        for member in self.members:
            if isinstance(step, PredictionStep):
                choice = self.choose(member, step)
                self.chosen[member.user_id, step.id] = choice.id
                await self._click(member, card, Action.CHOOSE, choice.id)
            elif isinstance(step, VerifierStep):
                for attempt in step.attempts:
                    thumbs = Action.UP if self.rng.random() < attempt.appeal else Action.DOWN
                    await self._click(member, card, thumbs, attempt.id)
            elif isinstance(step, FreeAnswerStep):
                await self._solve(member, card, step)

    def choose(self, member: Actor, step: PredictionStep) -> Choice:
        """A choice by the lesson's weights; at a recall that sets them, by the learning chances.

        Asked again, one who was wrong moves to the right answer with the chance `learned`,
        else keeps their answer; one who was right keeps it with the chance `kept`, else picks
        another choice by its weight.
        """
        first = self.chosen.get((member.user_id, step.recall or ""))
        right = step.correct_choice
        if not learns(step) or first is None or right is None:
            return self._weighted(step.choices)
        if first == right.id:
            chance, otherwise = step.kept, [c for c in step.choices if c.id != right.id]
        else:
            chance, otherwise = step.learned, [c for c in step.choices if c.id == first]
        if chance is None:
            return self._weighted(step.choices)
        return right if self.rng.random() < chance else self._weighted(otherwise)

    def _weighted(self, choices: Sequence[Choice]) -> Choice:
        return self.rng.choices(choices, weights=[c.crowd for c in choices])[0]

    async def _solve(self, member: Actor, card: StepCard, step: FreeAnswerStep) -> None:
        if not step.crowd_answers:
            return
        weights = [answer.weight for answer in step.crowd_answers]
        address = Address(card.run_id, card.step_id, Action.ANSWER).encode()
        for _ in range(2):
            answer = self.rng.choices(step.crowd_answers, weights=weights)[0]
            outcome = await self.service.answer(member, address, answer.text)
            await outcome.shown()
            if outcome.reward or self.rng.random() > RETRY_CHANCE:
                return

    async def _click(self, member: Actor, card: StepCard, action: Action, arg: str) -> None:
        address = Address(card.run_id, card.step_id, action, arg).encode()
        await (await self.service.click(member, address)).shown()
