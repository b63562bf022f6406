"""What every kind of step answers for: its card, what members may do, its tally, reveal, result.

Each kind lives in its own module of this package and names the schema class it serves; the
rest of the engine asks `kind_of(step)` and never checks a step's class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.engine.addresses import Action, Address
from bot.engine.ports import TallyStorage
from bot.model.errors import WrongStep
from bot.model.records import RunRecord, StepTally
from bot.model.views import Bar, Button, LineChart, RevealCard, Section, VerifierRow
from bot.verifier.verdict import Verdict
from lessons.schema import (
    FreeAnswerStep,
    Lesson,
    PredictionStep,
    Step,
    StepBase,
    VerifierStep,
)

S = TypeVar("S", bound=StepBase)
MORE_LABEL = "More"

CardExtras = tuple[tuple[Section, ...], LineChart]
"""Sections and a chart a step's card gains from what the run did (the mechanism's toy)."""


@dataclass(frozen=True)
class ModeWords:
    """What a run's mode tells members they will see of a question, once they have answered.

    A live run reveals each question to the channel; an assigned one shows each member the
    tally so far as soon as they answer. Each mode words its own promises.
    """

    recall: str
    """On a question asked again: how members will see the answers move."""


@dataclass(frozen=True)
class StepResult:
    """A revealed question's part of a run's results: its lines, its right-answers bar, rows."""

    lines: tuple[str, ...]
    bar: Bar | None = None
    rows: tuple[VerifierRow, ...] = ()


class RunData(Protocol):
    """What a step kind reads about a run: its lesson, a step's tally, the checker's verdicts."""

    def lesson_of(self, run: RunRecord) -> Lesson:
        """The lesson a run follows."""
        ...

    async def step_tally(self, run: RunRecord, step: Step) -> StepTally:
        """A step's aggregates: frozen at its reveal, or live while it is open."""
        ...

    async def attempt_verdicts(self, run: RunRecord, step: VerifierStep) -> dict[str, Verdict]:
        """The checker's verdict on every attempt of a verifier step, by attempt id."""
        ...


_KINDS: dict[type[StepBase], type[KindOfStep[Any]]] = {}


def kind_of(step: Step) -> KindOfStep[Any]:
    """The kind of a lesson step, which knows how that step behaves."""
    return _KINDS[type(step)].of(step)


def known_kinds() -> dict[type[StepBase], type[KindOfStep[Any]]]:
    """Each schema step class mapped to the kind that serves it."""
    return dict(_KINDS)


def button_address(run_id: int, step_id: str, action: Action, arg: str = "") -> str:
    """The encoded address of a button of a run's step."""
    return Address(run_id, step_id, action, arg).encode()


def more_button(run_id: int, step_id: str) -> Button:
    """The button any member clicks to read a step's longer detail privately."""
    address = button_address(run_id, step_id, Action.MORE)
    return Button(address, MORE_LABEL, row=0, emoji="📖")


class KindOfStep(Generic[S]):
    """How one kind of step behaves; a subclass that sets `step_class` serves that class.

    What a kind does not offer, it refuses with `WrongStep`.
    """

    step_class: ClassVar[type[StepBase]]
    takes_answers: ClassVar[bool] = False
    """Whether members answer this step (so it has a reveal and a line in the results)."""
    host_row: ClassVar[int] = 1
    """The row of the host's Reveal or Next button."""
    done_once_answered: ClassVar[frozenset[Action]] = frozenset()
    """What a member no longer needs once they answered, in their own pass (a choice made)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step_class" in cls.__dict__:
            _KINDS[cls.step_class] = cls

    def __init__(self, step: S) -> None:
        self.step = step

    @classmethod
    def of(cls, step: S) -> KindOfStep[S]:
        """The kind for this step (a variant, where the kind has one)."""
        return cls(step)

    @property
    def recalls(self) -> str | None:
        """The id of the earlier step this one asks again, if it is a recall."""
        return None

    def own_move(self, first: str | None, second: str | None) -> str | None:
        """At a recall, a member's own move from their first choice to this one; else None."""
        return None

    def promise(self, words: ModeWords) -> str:
        """What the card promises members will see once they answer, in the mode's words."""
        return ""

    def sections(self) -> tuple[Section, ...]:
        """The problem, sample attempts or next steps the card shows under its body."""
        return ()

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """The buttons members use at this step: More for its longer detail, if any."""
        return (more_button(run_id, self.step.id),) if self.step.more else ()

    async def card_extras(self, data: RunData, run: RunRecord) -> CardExtras | None:
        """What the card gains from this run's answers; None for a card that shows as written."""
        return None

    def for_choosing(self) -> PredictionStep:
        """The question whose choices members pick from."""
        raise WrongStep("choices")

    def for_rating(self) -> VerifierStep:
        """The exercise whose sample attempts members rate and run the checker on."""
        raise WrongStep("sample attempts")

    def for_answering(self) -> FreeAnswerStep:
        """The problem members type their answers to."""
        raise WrongStep("answer box")

    async def count(self, tallies: TallyStorage, run_id: int) -> StepTally:
        """This step's aggregates as they stand in the database now."""
        participants, votes = await tallies.step_counts(run_id, self.step.id)
        return StepTally(participants, tuple(votes))

    async def before_reveal(self, data: RunData, run: RunRecord) -> None:
        """Whatever must succeed before the answers close (nothing, for most kinds)."""

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """This question's results, filled into `base` (title, count and buttons)."""
        raise WrongStep("answers to reveal")

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """This question's lines (and bar) in the run's results."""
        raise WrongStep("answers to reveal")
