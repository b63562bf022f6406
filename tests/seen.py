"""What a request showed the member who acted, read from its effects: the tests' own surface."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import OwnStep
from bot.model import ReasonCard, RevealCard, StepCard, SummaryCard
from bot.service import Effect, Outcome, effects


@dataclass
class Seen:
    """Each effect's part, by what a test asks of it.

    `reply`: what the member was told (a text, the results, a file); `done`: a confirmation;
    `own`: their own step shown; `answered`: their own step after an answer, with `so_far`;
    `redraw`: what the clicked message became; `repeated`: a delivery already handled.
    """

    reply: str | SummaryCard | effects.FileReply | None = None
    done: str | None = None
    form: effects.FormToOpen | None = None
    repeated: bool = False
    refused: bool = False
    reward: int | None = None
    tries_left: int | None = None
    own: OwnStep | None = None
    answered: OwnStep | None = None
    so_far: RevealCard | None = None
    redraw: ReasonCard | StepCard | None = None
    effects: tuple[Effect, ...] = ()


def _receipt(seen: Seen, effect: effects.AnswerReceipt | effects.OwnStepAnswered) -> None:
    seen.reply, seen.reward, seen.tries_left = effect.text, effect.reward, effect.tries_left


def _answered(seen: Seen, effect: effects.OwnStepAnswered) -> None:
    _receipt(seen, effect)
    seen.answered, seen.so_far = effect.step, effect.step.so_far


def _refused(seen: Seen, effect: effects.Refusal) -> None:
    seen.reply, seen.refused = effect.text, True


def _own(seen: Seen, effect: effects.OwnStepShown) -> None:
    seen.reply, seen.own = effect.text, effect.step


READ: dict[type[Any], Callable[[Seen, Any], None]] = {
    effects.PrivateText: lambda seen, effect: setattr(seen, "reply", effect.text),
    effects.Refusal: _refused,
    effects.Confirmation: lambda seen, effect: setattr(seen, "done", effect.text),
    effects.PrivateResults: lambda seen, effect: setattr(seen, "reply", effect.summary),
    effects.FileReply: lambda seen, effect: setattr(seen, "reply", effect),
    effects.FormToOpen: lambda seen, effect: setattr(seen, "form", effect),
    effects.AnswerReceipt: _receipt,
    effects.OwnStepShown: _own,
    effects.OwnStepAnswered: _answered,
    effects.ReasonHidden: lambda seen, effect: setattr(seen, "redraw", effect.card),
    effects.CheckMovedOn: lambda seen, effect: setattr(seen, "redraw", effect.card),
    effects.AlreadyHandled: lambda seen, effect: setattr(seen, "repeated", True),
}


def seen_in(effects: tuple[Effect, ...]) -> Seen:
    """What these effects show the member."""
    seen = Seen(effects=effects)
    for effect in effects:
        READ[type(effect)](seen, effect)
    return seen


async def seen(outcome: Outcome) -> Seen:
    """Make the outcome's channel updates, then what the member is shown."""
    return seen_in(await outcome.shown())
