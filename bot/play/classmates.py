"""Simulated classmates: seeded members who click the posted buttons like real ones would."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import Action, Address, parse_address
from bot.i18n import _, percent
from bot.model import Place, ReasonCard, StepCard
from bot.play.effects import shown_by
from bot.service import Actor, CommandArgs, LessonService
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
        Actor(
            f"sim-{index + 1:02d}", _("{name} (simulated)", name=NAMES[index % len(NAMES)]), place
        )
        for index in range(count)
    ]


def learning_assumption(learning: Learning) -> str:
    """What the simulated classmates are assumed to do at a question asked again."""
    wrong = (
        _(
            "one who was wrong moves to the right answer with a {chance} chance, "
            "else keeps their answer",
            chance=percent(learning.learned),
        )
        if learning.learned is not None
        else _("one who was wrong answers by the lesson's weights again")
    )
    right = (
        _("one who was right keeps it with a {chance} chance", chance=percent(learning.kept))
        if learning.kept is not None
        else _("one who was right answers by the lesson's weights again")
    )
    return _(
        "Assumption for the simulated classmates, set by the lesson's author: asked a question "
        "again, each remembers their first answer; {wrong}; {right}.",
        wrong=wrong, right=right,
    )


def switch_assumption(switch: float) -> str:
    """What the simulated classmates are assumed to do when they read reasons, answering again."""
    return _(
        "Assumption for the simulated classmates, set by the lesson's author: each writes a "
        "reason picked from the lesson's reasons for its answer; one whose first answer was "
        "wrong moves to the right answer with a {chance} chance once it has read a reason "
        "for it, else keeps its answer; one who was right keeps it.",
        chance=percent(switch),
    )


@dataclass(frozen=True)
class Shift:
    """How the simulated classmates' answers moved at a question answered twice."""

    both: int
    right_before: int
    right_after: int

    def text(self) -> str:
        """The shift, labelled as the simulation's."""
        return _(
            "Simulated classmates only (not real people): {before} of {both} right at the first "
            "answer → {after} of {both} after reading reasons.",
            before=self.right_before, both=self.both, after=self.right_after,
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
    again: dict[tuple[str, str], str] = field(default_factory=dict)
    """Second answers, after reading reasons, by member and step."""

    async def answer(self, card: StepCard, step: Step, read: Sequence[str] = ()) -> None:
        """Have every classmate answer the step the card shows, with the card's own buttons.

        At a second vote, `read` holds the ids of the choices they all read a reason for.
        """
        crowd = step.crowd()
        choosing = bool(buttons_for(card, Action.CHOOSE))
        again = bool(buttons_for(card, Action.AGAIN))
        rating = bool(buttons_for(card, Action.UP))
        for member in self.members:
            if choosing:
                choice = self.choose(member, crowd)
                self.chosen[member.user_id, card.step_id] = choice.id
                await self._click(member, card, Action.CHOOSE, choice.id)
                if buttons_for(card, Action.WHY):
                    await self._reason(member, card, crowd.reasons.get(choice.id, ()))
            elif again:
                await self._answer_again(member, card, crowd, read)
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

    async def take_turns(self, card: StepCard, step: Step) -> None:
        """At a question asking reasons, each classmate's own next turn: read, answer again."""
        if not buttons_for(card, Action.WHY):
            return
        crowd = step.crowd()
        for member in self.members:
            resumed = await self.service.command(member, "continue", CommandArgs())
            own = (await shown_by(resumed.effects)).own
            turn = own.card if own is not None else None
            if turn is not None and buttons_for(turn, Action.AGAIN):
                headings = [section.heading for section in turn.sections]
                read = choices_read(headings, crowd.choices)
                await self._answer_again(member, turn, crowd, read)

    def choose_again(
        self, member: Actor, step_id: str, crowd: Crowd, read: Sequence[str]
    ) -> Choice:
        """A second answer, after reading reasons for the choices in `read`.

        One who was wrong and read a reason for the right answer switches to it with the
        chance `switch`; everyone else keeps their first answer.
        """
        first = self.chosen.get((member.user_id, step_id))
        right = crowd.right
        kept = next((c for c in crowd.choices if c.id == first), None)
        if kept is None or right is None:
            return self._weighted(crowd.choices)
        if first != right.id and right.id in read and self.rng.random() < (crowd.switch or 0):
            return right
        return kept

    def shift(self, step_id: str, right: str) -> Shift:
        """How the classmates' answers at a question answered twice moved, from their clicks."""
        pairs = [
            (first, self.again[user_id, step])
            for (user_id, step), first in self.chosen.items()
            if step == step_id and (user_id, step) in self.again
        ]
        return Shift(
            len(pairs),
            sum(first == right for first, _ in pairs),
            sum(second == right for _, second in pairs),
        )

    async def _answer_again(
        self, member: Actor, card: StepCard, crowd: Crowd, read: Sequence[str]
    ) -> None:
        choice = self.choose_again(member, card.step_id, crowd, read)
        self.again[member.user_id, card.step_id] = choice.id
        await self._click(member, card, Action.AGAIN, choice.id)

    async def _reason(self, member: Actor, card: StepCard, pool: Sequence[str]) -> None:
        """Write a reason from the pool into the form the card's reason button opens."""
        if not pool:
            return
        address = Address(card.run_id, card.step_id, Action.WHY).encode()
        form = (await shown_by((await self.service.click(member, address)).effects)).form
        if form is not None:
            reason = self.rng.choice(pool)
            await (await self.service.answer(member, form.address.encode(), reason)).shown()

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
        for _try in range(2):
            answer = self.rng.choices(answers, weights=weights)[0]
            outcome = await self.service.answer(member, address, answer.text)
            graded = await shown_by(await outcome.shown())
            if graded.reward or self.rng.random() > RETRY_CHANCE:
                return

    async def _click(self, member: Actor, card: StepCard, action: Action, arg: str) -> None:
        address = Address(card.run_id, card.step_id, action, arg).encode()
        await (await self.service.click(member, address)).shown()


def choices_read(headings: Sequence[str], choices: Sequence[Choice]) -> list[str]:
    """The ids of the choices argued for by the reasons shown under `headings`."""
    return [
        choice.id
        for choice in choices
        if any(heading in reason_headings(choice.label) for heading in headings)
    ]


def reason_headings(label: str) -> set[str]:
    """The headings a reason for the choice labelled `label` is shown under."""
    return {ReasonCard(0, "", label, "", by_author=author).heading for author in (False, True)}
