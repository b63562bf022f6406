"""What the member who acted is shown on Discord: one renderer for each effect of the service.

Each adds what the interaction is answered with (`Told`), or does it: opens a modal, redraws a
post. Discord answers every interaction, so a confirmation is shown too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_adapter.forms import StepForm
from bot.discord_adapter.passes import PassStep
from bot.discord_adapter.render import (
    Outgoing,
    file_message,
    own_step_message,
    reason_message,
    reveal_message,
    step_message,
    summary_message,
)
from bot.service import Effect, Presenter, Renderer, effects, render

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]
PrivateMessage = str | Outgoing
"""What the member is told: a text, or a message with embeds or files."""
Told = PrivateMessage | PassStep
"""What the member is told, or shown in their pass message."""


@dataclass
class Answer:
    """One interaction being answered, and what it is to be answered with so far."""

    interaction: Interaction
    told: list[Told] = field(default_factory=list)


class DiscordEffects:
    """Renders the service's effects as the answers to one Discord interaction."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.table: dict[type[Any], Renderer[Answer]] = {
            effects.PrivateText: _text, effects.Refusal: _text, effects.AnswerReceipt: _text,
            effects.Confirmation: _text, effects.AlreadyHandled: _nothing,
            effects.FileReply: _file, effects.FormToOpen: _form, effects.CheckMovedOn: _check,
            effects.ReasonHidden: _redraw_clicked, effects.PrivateResults: self._results,
            effects.OwnStepShown: self._own_step, effects.OwnStepAnswered: self._own_step,
        }

    async def told(self, interaction: Interaction, shown: tuple[Effect, ...]) -> list[Told]:
        """What to answer the interaction with, in order, once each effect is rendered."""
        answer = Answer(interaction)
        await render(self.table, answer, shown)
        return answer.told

    async def _results(self, to: Answer, effect: effects.PrivateResults) -> None:
        draw, summary = self.presenter.draw, effect.summary
        message = summary_message(summary, await draw(summary.chart))
        message.then = [reveal_message(card, await draw(card.chart)) for card in summary.reveals]
        to.told.append(message)

    async def _own_step(
        self, to: Answer, effect: effects.OwnStepShown | effects.OwnStepAnswered
    ) -> None:
        to.told.append(PassStep(own_step_message(*await self.presenter.draw_own(effect.step))))


async def _text(to: Answer, effect: effects.Said) -> None:
    to.told.append(effect.text)


async def _nothing(to: Answer, effect: effects.AlreadyHandled) -> None:
    pass  # a repeat this process acknowledged is told so by `PrivateReplies`


async def _file(to: Answer, effect: effects.FileReply) -> None:
    to.told.append(file_message(effect, to.interaction.filesize_limit))


async def _form(to: Answer, effect: effects.FormToOpen) -> None:
    await to.interaction.response.send_modal(StepForm(effect.address, effect.form))


async def _check(to: Answer, effect: effects.CheckMovedOn) -> None:
    to.told.append(PassStep(step_message(effect.card)))


async def _redraw_clicked(to: Answer, effect: effects.ReasonHidden) -> None:
    """Redraw only the message that carries the clicked button; logged if Discord refuses."""
    data: dict[str, Any] = dict(to.interaction.data or {})
    message, clicked = to.interaction.message, data.get("custom_id")
    if message is None or clicked not in {
        getattr(item, "custom_id", None) for row in message.components
        for item in getattr(row, "children", ())
    }:
        return
    try:
        await message.edit(**reason_message(effect.card).edit_kwargs())
    except discord.HTTPException as error:
        log.warning("could not redraw the clicked message: Discord answered %s", error.status)
