"""Simulated classmates: seeded members who click the posted buttons like real ones would."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import Action, Address, parse_address
from bot.model import Place, StepCard
from bot.service import Actor, LessonService
from lessons.schema import Attempt, Choice, Crowd, CrowdAnswer, Learning, Lesson, Step

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


@dataclass(frozen=True)
class Labelled:
    """What a member button acts on: a choice or a sample attempt, by id, and its label."""

    id: str
    label: str


def buttons_for(card: StepCard, action: Action) -> list[Labelled]:
    """What the card's buttons for `action` act on, in the card's order."""
    found = [(parse_address(button.address), button.label) for button in card.buttons]
    return [Labelled(address.arg, label) for address, label in found if address.action is action]


def make_classmates(count: int, place: Place) -> list[Actor]:
    """`count` simulated members in `place`, labelled as such in their names."""
    return [
        Actor(f"sim-{index + 1:02d}", f"{NAMES[index % len(NAMES)]} (simulated)", place)
        for index in range(count)
    ]


def learning_assumption(learning: Learning) -> str:
    """What the simulated classmates are assumed to do at a question asked again."""
    wrong = (
        f"one who was wrong moves to the right answer with a {learning.learned:.0%} chance, "
        "else keeps their answer"
        if learning.learned is not None
        else "one who was wrong answers by the lesson's weights again"
    )
    right = (
        f"one who was right keeps it with a {learning.kept:.0%} chance"
        if learning.kept is not None
        else "one who was right answers by the lesson's weights again"
    )
    return (
        "Assumption for the simulated classmates, set by the lesson's author: asked a question "
        f"again, each remembers their first answer; {wrong}; {right}."
    )


def learning_assumptions(lesson: Lesson) -> dict[str, str]:
    """The learning assumption of each recall step that sets one, by step id."""
    return {
        step.id: learning_assumption(learning)
        for step in lesson.steps
        if (learning := step.crowd().learning) is not None
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
        """Have every classmate answer the step the card shows, with the card's own buttons."""
        crowd = step.crowd()
        choosing = bool(buttons_for(card, Action.CHOOSE))
        rating = bool(buttons_for(card, Action.UP))
        for member in self.members:
            if choosing:
                choice = self.choose(member, crowd)
                self.chosen[member.user_id, card.step_id] = choice.id
                await self._click(member, card, Action.CHOOSE, choice.id)
            elif rating:
                await self._rate(member, card, step.sample_attempts())
            else:
                await self._solve(member, card, crowd.answers)

    def choose(self, member: Actor, crowd: Crowd) -> Choice:
        """A choice by the lesson's weights; at a recall that sets them, by the learning chances.

        Asked again, one who was wrong moves to the right answer with the chance `learned`,
        else keeps their answer; one who was right keeps it with the chance `kept`, else picks
        another choice by its weight.
        """
        choices, right, learning = crowd.choices, crowd.right, crowd.learning
        first = self.chosen.get((member.user_id, learning.recall)) if learning else None
        if learning is None or first is None or right is None:
            return self._weighted(choices)
        if first == right.id:
            chance, otherwise = learning.kept, [c for c in choices if c.id != right.id]
        else:
            chance, otherwise = learning.learned, [c for c in choices if c.id == first]
        if chance is None:
            return self._weighted(choices)
        return right if self.rng.random() < chance else self._weighted(otherwise)

    def _weighted(self, choices: Sequence[Choice]) -> Choice:
        return self.rng.choices(choices, weights=[c.crowd for c in choices])[0]

    async def _rate(self, member: Actor, card: StepCard, attempts: Sequence[Attempt]) -> None:
        for attempt in attempts:
            thumbs = Action.UP if self.rng.random() < attempt.appeal else Action.DOWN
            await self._click(member, card, thumbs, attempt.id)

    async def _solve(
        self, member: Actor, card: StepCard, answers: Sequence[CrowdAnswer]
    ) -> None:
        if not answers:
            return
        weights = [answer.weight for answer in answers]
        address = Address(card.run_id, card.step_id, Action.ANSWER).encode()
        for _ in range(2):
            answer = self.rng.choices(answers, weights=weights)[0]
            outcome = await self.service.answer(member, address, answer.text)
            await outcome.shown()
            if outcome.reward or self.rng.random() > RETRY_CHANCE:
                return

    async def _click(self, member: Actor, card: StepCard, action: Action, arg: str) -> None:
        address = Address(card.run_id, card.step_id, action, arg).encode()
        await (await self.service.click(member, address)).shown()
