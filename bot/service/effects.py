"""What the service asks a front end to show the member who acted: small typed effects.

A request's `Outcome` is a tuple of effects, in the order they are shown, and the channel
updates to make first. Each front end (Discord, Slack, the terminal) keeps one table from
effect type to the function that renders it there; a new kind of answer is a new effect
class and one renderer per front end, never a new branch in shared code.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, get_args

from bot.engine import Address, OwnStep
from bot.model import Form, ReasonCard, StepCard, SummaryCard


@dataclass(frozen=True)
class PrivateText:
    """A text only the member who acted sees."""

    text: str


@dataclass(frozen=True)
class Refusal:
    """Why the request was refused; nothing was changed."""

    text: str


@dataclass(frozen=True)
class Confirmation:
    """A short "done", for a platform where every request must be answered (Discord's)."""

    text: str


@dataclass(frozen=True)
class PrivateResults:
    """A run's results so far, with each question's results, shown only to the member."""

    summary: SummaryCard


@dataclass(frozen=True)
class FileReply:
    """A private reply with a file attached (a run's answers as CSV)."""

    text: str
    filename: str
    data: bytes
    title: str = ""


@dataclass(frozen=True)
class FormToOpen:
    """Open a step's form (a free answer, a reason): its address, the step's card, the form."""

    address: Address
    card: StepCard
    form: Form


@dataclass(frozen=True)
class AnswerReceipt:
    """What a member's answer came to: the receipt's text, and the checker's reward if graded.

    `tries_left`: how many more tries the member has at a free-answer problem.
    """

    text: str
    reward: int | None = None
    tries_left: int | None = None


@dataclass(frozen=True)
class OwnStepShown:
    """A member's own step of an assignment, to show them privately (`text` says it in words)."""

    step: OwnStep
    text: str


@dataclass(frozen=True)
class OwnStepAnswered:
    """An answer at a member's own step: its receipt with the tally so far, and the step now.

    `step.text` is the receipt alone, for a platform that redraws the private message the
    answer came from; `step.turn` is set when the step asks the member something more.
    """

    text: str
    step: OwnStep
    reward: int | None = None
    tries_left: int | None = None


@dataclass(frozen=True)
class ReasonHidden:
    """The clicked post of a reason in a discussion thread becomes this: hidden by a host."""

    card: ReasonCard


@dataclass(frozen=True)
class CheckMovedOn:
    """A member's recall check, in the private message they clicked: verdicts, next question."""

    card: StepCard


@dataclass(frozen=True)
class AlreadyHandled:
    """A delivery some process already handled: nothing is shown or told again."""


Effect = (
    PrivateText | Refusal | Confirmation | PrivateResults | FileReply | FormToOpen
    | AnswerReceipt | OwnStepShown | OwnStepAnswered | ReasonHidden | CheckMovedOn
    | AlreadyHandled
)
Said = PrivateText | Refusal | Confirmation | AnswerReceipt
"""The effects that carry a text for the member, and nothing else to show."""
RedrawClicked = ReasonHidden | CheckMovedOn
"""The effects that redraw the message the member clicked, as a card."""
EFFECT_TYPES: tuple[type[Any], ...] = get_args(Effect)
"""Every effect type, for the front ends' tables to cover."""

Context = TypeVar("Context")
Renderer = Callable[[Context, Any], Awaitable[None]]
"""How one front end shows one kind of effect to the member who acted (`Context`: where)."""


async def render(
    table: Mapping[type[Any], Renderer[Context]], context: Context, effects: tuple[Effect, ...]
) -> None:
    """Show each effect, in order, with the renderer its type has in `table`."""
    for effect in effects:
        await table[type(effect)](context, effect)
