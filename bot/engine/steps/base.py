"""What every kind of step answers for: its card, what members may do, its tally, reveal, result.

Each kind lives in its own module of this package and names the schema class it serves; the
rest of the engine asks `kind_of(step)` and never checks a step's class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.engine.addresses import Action, Address
from bot.engine.checks import CheckTurns
from bot.engine.ports import AnswerChecker, AnswerStorage, ReasonStorage, TallyStorage
from bot.engine.steps.verdicts import AttemptVerdicts
from bot.i18n import N_, _
from bot.model.errors import WrongStep
from bot.model.records import Member, Phase, RunRecord, StepTally, VoteResult
from bot.model.views import (
    AnyChart,
    Bar,
    Button,
    Form,
    ReasonCard,
    Receipt,
    RevealCard,
    Section,
    StepCard,
)
from lessons.schema import Lesson, Step, StepBase

S = TypeVar("S", bound=StepBase)
MORE_LABEL = N_("More")

CardExtras = tuple[tuple[Section, ...], AnyChart]
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
class OwnTurn:
    """What a member does next at a step they answer in several turns, in their own pass.

    `prompt` follows the step's body; `sections` and `buttons` replace the card's own;
    `left` is what the member is told if they move on without taking the turn.
    """

    prompt: str
    sections: tuple[Section, ...] = ()
    buttons: tuple[Button, ...] = ()
    left: str = ""


@dataclass(frozen=True)
class StepResult:
    """A revealed question's part of a run's results: its lines, its right-answers bar."""

    lines: tuple[str, ...]
    bar: Bar | None = None


class RunData(Protocol):
    """What a step kind reads about a run: its lesson, a step's tally, the checker's verdicts.

    `answers` and `reasons` hold what each member answered, and their reasons for it.
    """

    verdicts: AttemptVerdicts
    answers: AnswerStorage
    reasons: ReasonStorage

    def lesson_of(self, run: RunRecord) -> Lesson:
        """The lesson a run follows."""
        ...

    async def step_tally(self, run: RunRecord, step: Step) -> StepTally:
        """A step's aggregates: frozen at its reveal, or live while it is open."""
        ...


class Members(Protocol):
    """What a kind draws on to handle members' answers: the run's pace, the stores, the checker.

    Every answer is written through `cast_vote` or while `open_step` admits it, so the run's
    mode decides which step a member may answer; checks take the member's one turn (`turns`).
    """

    answers: AnswerStorage
    reasons: ReasonStorage
    checker: AnswerChecker
    verdicts: AttemptVerdicts
    turns: CheckTurns
    default_max_tries: int

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and the step, which must take this member's answers now (by its mode)."""
        ...

    async def known_run(self, run_id: int) -> RunRecord:
        """The run as first loaded (its lesson, host and place, not where it stands): no query."""
        ...

    async def cast_vote(
        self,
        run_id: int,
        step: Step,
        member: Member,
        kind: str,
        value: str,
        blocked_by: str | None = None,
        phase: Phase = Phase.OPEN,
    ) -> VoteResult:
        """Store a vote only while `step` is the run's open step (checked as it is written).

        `phase` is the phase a live run's step must be in: a second vote is cast in `AGAIN`.
        """
        ...


@dataclass(frozen=True)
class OpenForm:
    """A click that opens a form of a run's step for the member who clicked."""

    run: RunRecord
    step: Step
    form: Form


Reply = Receipt | OpenForm
"""What a member's click on a step's own button gives back."""


_KINDS: dict[type[StepBase], type[KindOfStep[Any]]] = {}


def kind_of(step: Step) -> KindOfStep[Any]:
    """The kind of a lesson step, which knows how that step behaves."""
    return _KINDS[type(step)].of(step)


def known_kinds() -> dict[type[StepBase], type[KindOfStep[Any]]]:
    """Each schema step class mapped to the kind that serves it."""
    return dict(_KINDS)


def offer_of(action: Action) -> str:
    """What a step must have for `action`, as in 'This step has no choices.'."""
    return next(
        (kind.offers for kind in _KINDS.values() if action in kind.takes), N_("such button")
    )


def button_address(run_id: int, step_id: str, action: Action, arg: str = "") -> str:
    """The encoded address of a button of a run's step."""
    return Address(run_id, step_id, action, arg).encode()


def more_button(run_id: int, step_id: str) -> Button:
    """The button any member clicks to read a step's longer detail privately."""
    address = button_address(run_id, step_id, Action.MORE)
    return Button(address, _(MORE_LABEL), row=0, emoji="📖")


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
    takes: ClassVar[frozenset[Action]] = frozenset()
    """The buttons of this step that members press, which `act` handles."""
    offers: ClassVar[str] = ""
    """What those buttons stand for, as a refusal names it: 'This step has no choices.'."""

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

    def own_move(self, first: Mapping[str, str], second: Mapping[str, str]) -> str | None:
        """At a recall, a member's own move between their votes the first time and now."""
        return None

    def promise(self, words: ModeWords) -> str:
        """What the card promises members will see once they answer, in the mode's words."""
        return ""

    def sections(self) -> tuple[Section, ...]:
        """The problem, sample attempts or next steps the card shows under its body."""
        return ()

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """The buttons members use at this step: More for its longer detail, if any."""
        return (more_button(run_id, self.step.id),) if self.has_more else ()

    @property
    def has_more(self) -> bool:
        """Whether the step has longer detail that waits behind its More button."""
        return bool(self.step.more)

    async def more(self, data: RunData, run: RunRecord) -> str:
        """The step's longer detail, told privately to a member who presses More."""
        if not self.step.more:
            raise WrongStep(N_("more to read"))
        return self.step.more

    async def card_extras(self, data: RunData, run: RunRecord) -> CardExtras | None:
        """What the card gains from this run's answers; None for a card that shows as written."""
        return None

    async def act(self, members: Members, address: Address, member: Member) -> Reply:
        """Handle a member's press of one of the buttons this step `takes`."""
        raise WrongStep(offer_of(address.action))

    async def answer(self, members: Members, run: RunRecord, member: Member, text: str) -> Receipt:
        """Take a member's typed answer at this step, the run's open one for them."""
        raise WrongStep(offer_of(Action.ANSWER))

    async def shown_card(self, data: RunData, run: RunRecord, card: StepCard) -> StepCard:
        """The card as the run shows it in its current phase (as built, for most kinds)."""
        return card

    async def own_turn(self, data: RunData, run: RunRecord, member: Member) -> OwnTurn | None:
        """In a member's own pass, their next turn at this step before it counts as answered.

        None when there is none: the step is answered in one go, or the member is done.
        """
        return None

    async def shows_so_far(self, data: RunData, run: RunRecord, member: Member) -> bool:
        """Whether a member who answered this step in their own pass may see its tally so far."""
        return True

    async def closes_to(self, data: RunData, run: RunRecord) -> Phase:
        """Where a host's reveal takes this step: to its results (a peer round may vote again)."""
        return Phase.REVEALED

    async def discussion(self, data: RunData, run: RunRecord) -> tuple[ReasonCard, ...]:
        """The reasons the channel discusses when the step holds a second vote (`closes_to`)."""
        raise WrongStep(N_("second vote"))

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
        raise WrongStep(N_("answers to reveal"))

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """This question's lines (and bar) in the run's results."""
        raise WrongStep(N_("answers to reveal"))
