"""What a request shows the player in the terminal: one renderer for each effect of the service.

The terminal has one reader, so each effect becomes lines to print and what the play loop goes
on from: a form to fill in, a grade, the player's own step, their recall check's next question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine import OwnStep
from bot.model import StepCard
from bot.service import Effect, Renderer, effects, render


@dataclass
class Shown:
    """What one request showed the player: the texts to print, and what to go on from."""

    texts: list[str] = field(default_factory=list)
    form: effects.FormToOpen | None = None
    refused: bool = False
    reward: int | None = None
    """What the checker gave the answer (None: it was not graded)."""
    tries_left: int | None = None
    own: OwnStep | None = None
    check: StepCard | None = None
    """The player's recall check, moved on to its verdicts and next question."""

    @property
    def told(self) -> str:
        """Everything the player was told, one paragraph after another."""
        return "\n\n".join(self.texts)


async def text(shown: Shown, effect: effects.PrivateText | effects.FileReply) -> None:
    """A private text (a file's text: the terminal keeps no file)."""
    shown.texts.append(effect.text)


async def refusal(shown: Shown, effect: effects.Refusal) -> None:
    """Why the request was refused."""
    shown.texts.append(effect.text)
    shown.refused = True


async def receipt(shown: Shown, effect: effects.AnswerReceipt) -> None:
    """What an answer came to, and its grade."""
    shown.texts.append(effect.text)
    shown.reward, shown.tries_left = effect.reward, effect.tries_left


async def own_receipt(shown: Shown, effect: effects.OwnStepAnswered) -> None:
    """What an answer at the player's own step came to; its tally is printed after the step."""
    shown.texts.append(effect.step.text)
    shown.reward, shown.tries_left = effect.reward, effect.tries_left


async def nothing(shown: Shown, effect: effects.Confirmation | effects.AlreadyHandled) -> None:
    """Nothing to print: the terminal shows the channel itself."""


async def results(shown: Shown, effect: effects.PrivateResults) -> None:
    """The results' title and lines."""
    shown.texts.append("\n".join([effect.summary.title, *effect.summary.lines]))


async def form(shown: Shown, effect: effects.FormToOpen) -> None:
    """A form to fill in at the prompt."""
    shown.form = effect


async def own_step(shown: Shown, effect: effects.OwnStepShown) -> None:
    """The player's own step of an assignment, printed by the play loop."""
    shown.own = effect.step


async def check(shown: Shown, effect: effects.CheckMovedOn) -> None:
    """The player's recall check, moved on."""
    shown.check = effect.card


TABLE: dict[type[Any], Renderer[Shown]] = {
    effects.PrivateText: text,
    effects.FileReply: text,
    effects.Refusal: refusal,
    effects.AnswerReceipt: receipt,
    effects.OwnStepAnswered: own_receipt,
    effects.Confirmation: nothing,
    effects.ReasonHidden: nothing,
    effects.AlreadyHandled: nothing,
    effects.PrivateResults: results,
    effects.FormToOpen: form,
    effects.OwnStepShown: own_step,
    effects.CheckMovedOn: check,
}


async def shown_by(effects: tuple[Effect, ...]) -> Shown:
    """What the effects show the player."""
    shown = Shown()
    await render(TABLE, shown, effects)
    return shown
