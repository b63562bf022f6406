"""Simulated classmates: seeded members who answer with plausible distributions."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine import LessonBotError, LessonEngine, Member
from lessons.schema import FreeAnswerStep, PredictionStep, Step, VerifierStep

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


def make_classmates(count: int) -> list[Member]:
    """`count` simulated members, labelled as such in their names."""
    return [
        Member(f"sim-{index + 1:02d}", f"{NAMES[index % len(NAMES)]} (simulated)")
        for index in range(count)
    ]


@dataclass
class Classmates:
    """Simulated members answering every step through the engine, like real ones."""

    engine: LessonEngine
    members: list[Member]
    rng: random.Random

    async def answer(self, run_id: int, step: Step) -> None:
        """Have every classmate answer the current step."""
        for member in self.members:
            try:
                await self._answer_one(run_id, step, member)
            except LessonBotError:
                continue

    async def _answer_one(self, run_id: int, step: Step, member: Member) -> None:
        if isinstance(step, PredictionStep):
            weights = [choice.crowd for choice in step.choices]
            choice = self.rng.choices(step.choices, weights=weights)[0]
            await self.engine.choose(run_id, step.id, member, choice.id)
        elif isinstance(step, VerifierStep):
            for attempt in step.attempts:
                thumbs_up = self.rng.random() < attempt.appeal
                await self.engine.rate(run_id, step.id, member, attempt.id, thumbs_up)
        elif isinstance(step, FreeAnswerStep):
            await self._solve(run_id, step, member)

    async def _solve(self, run_id: int, step: FreeAnswerStep, member: Member) -> None:
        if not step.crowd_answers:
            return
        weights = [answer.weight for answer in step.crowd_answers]
        for _ in range(2):
            answer = self.rng.choices(step.crowd_answers, weights=weights)[0]
            receipt = await self.engine.submit_answer(run_id, step.id, member, answer.text)
            if receipt.reward or self.rng.random() > RETRY_CHANCE:
                return
