"""Simulated classmates: seeded members who click the posted buttons like real ones would."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import Action, Address, Place, StepCard
from bot.service import Actor, LessonService
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep

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


@dataclass
class Classmates:
    """Simulated members answering every step through the service, like real ones."""

    service: LessonService
    members: list[Actor]
    rng: random.Random

    async def answer(
        self, card: StepCard, step: PredictionStep | VerifierStep | FreeAnswerStep
    ) -> None:
        """Have every classmate answer the step the card shows."""
        for member in self.members:
            if isinstance(step, PredictionStep):
                choice = self.rng.choices(step.choices, weights=[c.crowd for c in step.choices])
                await self._click(member, card, Action.CHOOSE, choice[0].id)
            elif isinstance(step, VerifierStep):
                for attempt in step.attempts:
                    thumbs = Action.UP if self.rng.random() < attempt.appeal else Action.DOWN
                    await self._click(member, card, thumbs, attempt.id)
            else:
                await self._solve(member, card, step)

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
