"""Answering one interaction privately: acknowledging it, then the response or a follow-up."""

from __future__ import annotations

import logging

import discord

from bot.discord_adapter.context import Interaction
from bot.discord_adapter.limits import MAX_CONTENT, clip
from bot.discord_adapter.outgoing import Outgoing

log = logging.getLogger(__name__)

Reply = str | Outgoing


async def defer_privately(interaction: Interaction, thinking: bool = True) -> None:
    """Acknowledge now; the reply follows, visible only to the member.

    With `thinking`, the member sees "thinking…" until then. Without it, a button click is
    acknowledged with nothing shown (the button stops spinning), which costs Discord and the
    bot less under a burst; other interactions still show "thinking…". If Discord refuses
    (the interaction expired), the work still runs: votes are upserts, so the member's click
    counts once even when they click again.
    """
    if interaction.response.is_done():
        return
    thinking = thinking or interaction.type is not discord.InteractionType.component
    try:
        await interaction.response.defer(ephemeral=True, thinking=thinking)
    except discord.HTTPException as error:
        log.warning("could not acknowledge an interaction: %s", error.text or error.status)


async def send_private(interaction: Interaction, reply: Reply) -> None:
    """Send an ephemeral message, as the first response or as a follow-up."""
    message = reply if isinstance(reply, Outgoing) else Outgoing(clip(reply, MAX_CONTENT))
    kwargs = message.send_kwargs()
    kwargs.pop("view", None)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        log.warning("could not reply to an interaction: %s", error.text or error.status)
