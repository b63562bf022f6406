"""A step's one-field form (an answer, a reason): a button opens it, its submission is private."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.engine import Address
from bot.model import Form

ANSWER_FIELD = "answer"
MAX_TITLE = 45
MAX_PLACEHOLDER = 100
MAX_DESCRIPTION = 100
LONG_ANSWER = 200
"""Answers allowed to be longer than this get a box of several lines."""


class StepForm(discord.ui.Modal):
    """A one-field form whose custom_id is the step's address, drawn from the engine's `Form`.

    It is not kept in memory: submissions are handled by custom_id in the bot's interaction
    listener, so a form opened before a restart can still be submitted after it.
    """

    def __init__(self, address: Address, form: Form) -> None:
        super().__init__(title=form.title[:MAX_TITLE], custom_id=address.encode(), timeout=None)
        style = discord.TextStyle.long if form.max_length > LONG_ANSWER else discord.TextStyle.short
        field = discord.ui.TextInput[discord.ui.Modal](
            custom_id=ANSWER_FIELD,
            placeholder=form.placeholder[:MAX_PLACEHOLDER],
            min_length=form.min_length,
            max_length=form.max_length,
            style=style,
        )
        label = discord.ui.Label[discord.ui.Modal](
            text=form.label[:MAX_TITLE], description=form.hint[:MAX_DESCRIPTION] or None,
            component=field,
        )
        self.add_item(label)
        self.stop()


def submitted_text(interaction: discord.Interaction[discord.Client]) -> str:
    """The value of the answer field of a submitted form."""
    data: dict[str, Any] = dict(interaction.data or {})
    return answer_value(data.get("components", []))


def answer_value(components: Iterable[dict[str, Any]]) -> str:
    """The value of the answer field, in rows (classic) or labels (newer forms)."""
    for component in components:
        children = component.get("components") or [component.get("component") or component]
        for child in children:
            if child.get("custom_id") == ANSWER_FIELD:
                return str(child.get("value", ""))
    return ""
