"""The free-answer form: the Answer button opens it, its submission is graded privately."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.engine import MAX_TYPED_ANSWER, Address

ANSWER_FIELD = "answer"
FORM_TITLE = "Your answer"


class AnswerForm(discord.ui.Modal):
    """A one-field form whose custom_id is the step's address.

    It is not kept in memory: submissions are handled by custom_id in the bot's interaction
    listener, so a form opened before a restart can still be submitted after it.
    """

    def __init__(self, address: Address) -> None:
        super().__init__(title=FORM_TITLE, custom_id=address.encode(), timeout=None)
        self.add_item(
            discord.ui.TextInput(
                label="Your final answer",
                custom_id=ANSWER_FIELD,
                placeholder="A number, fraction or expression, e.g. 0.5",
                max_length=MAX_TYPED_ANSWER,
            )
        )
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
