"""The free-answer form: the Answer button opens it, its submission is graded privately."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

import discord

from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.hosts import channel_of, member_of, place_of
from bot.discord_adapter.responses import send_private
from bot.engine import MAX_TYPED_ANSWER, Action, Address, BadAddress, LessonBotError, parse_address

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


async def open_answer_form(
    context: AdapterContext, interaction: Interaction, address: Address
) -> None:
    """Show the answer form if the step still takes answers; otherwise say why not."""
    if context.deliveries.repeated_here(interaction):
        return
    try:
        member = member_of(interaction, context.host_role)
        result = await context.engine.click(address, member, place_of(interaction))
    except LessonBotError as error:
        await send_private(interaction, str(error))
        return
    if result.opens_form:
        await interaction.response.send_modal(AnswerForm(address))


async def handle_answer_form(context: AdapterContext, interaction: Interaction) -> None:
    """Grade a submitted answer form privately (the checker may be slow: defer at once)."""
    data: dict[str, Any] = dict(interaction.data or {})
    work = partial(grade_answer, context, interaction, data)
    await context.replies.reply(interaction, work, slow=True)


async def grade_answer(
    context: AdapterContext, interaction: Interaction, data: dict[str, Any]
) -> str:
    """Submit the typed answer to the engine; returns the private grade."""
    address = parse_address(str(data.get("custom_id", "")))
    if address.action is not Action.ANSWER:
        raise BadAddress()
    member = member_of(interaction, context.host_role)
    text = submitted_text(data.get("components", []))
    receipt = await context.engine.submit_answer(
        address.run_id, address.step_id, member, text, place_of(interaction)
    )
    message_id = interaction.message.id if interaction.message else None
    context.counters.touch(address.run_id, address.step_id, channel_of(interaction), message_id)
    return receipt.text


def submitted_text(components: Iterable[dict[str, Any]]) -> str:
    """The value of the answer field, in rows (classic) or labels (newer forms)."""
    for component in components:
        children = component.get("components") or [component.get("component") or component]
        for child in children:
            if child.get("custom_id") == ANSWER_FIELD:
                return str(child.get("value", ""))
    return ""
