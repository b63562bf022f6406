"""Button clicks: parse the address, call the engine, show what changed, reply privately."""

from __future__ import annotations

from functools import partial

from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.hosts import channel_of, member_of, place_of
from bot.discord_adapter.modals import open_answer_form
from bot.discord_adapter.responses import send_private
from bot.engine import Action, Address, LessonBotError, parse_address

REVEALED = "Revealed. The results are posted in the channel."
MOVED_ON = "Moved on to the next step."
FINISHED = "That was the last step. The results are posted in the channel."


async def handle_click(context: AdapterContext, interaction: Interaction, custom_id: str) -> None:
    """Answer any lesson button; the checker may be slow, so its clicks defer at once."""
    try:
        address = parse_address(custom_id)
    except LessonBotError as error:
        await send_private(interaction, str(error))
        return
    if address.action is Action.ANSWER:
        await open_answer_form(context, interaction, address)
        return
    slow = address.action is Action.CHECK
    work = partial(apply_click, context, interaction, address)
    await context.replies.reply(interaction, work, slow)


async def apply_click(context: AdapterContext, interaction: Interaction, address: Address) -> str:
    """Run the click through the engine and show its effect; returns the private reply."""
    member = member_of(interaction, context.host_role)
    result = await context.engine.click(address, member, place_of(interaction))
    channel_id = channel_of(interaction)
    if result.receipt is not None:
        message_id = interaction.message.id if interaction.message else None
        context.counters.touch(address.run_id, address.step_id, channel_id, message_id)
        return result.receipt.text
    if result.reveal is not None:
        await context.publisher.show_reveal(channel_id, *result.reveal)
        return REVEALED
    if result.advance is not None:
        await context.publisher.show_advance(channel_id, result.advance)
        await context.publisher.messenger.disable_buttons(channel_id, interaction.message)
        return MOVED_ON if result.advance.card else FINISHED
    return ""
