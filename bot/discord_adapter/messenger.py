"""Sending and editing channel messages through Discord's REST API."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_adapter.buttons import disabled_view
from bot.discord_adapter.outgoing import NO_MENTIONS, Outgoing
from bot.discord_adapter.refs import MessageRef


class Messenger:
    """Posts lesson messages to channels and threads, and edits them later by reference."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, channel_id: int, message: Outgoing) -> MessageRef:
        """Post a message and return where it is."""
        channel = self.client.get_partial_messageable(channel_id)
        sent = await channel.send(**message.send_kwargs())
        return MessageRef(channel_id, sent.id)

    async def edit(
        self, ref: MessageRef, content: str, view: discord.ui.View | None = None
    ) -> None:
        """Change a message's text line (and its buttons when a view is given)."""
        channel = self.client.get_partial_messageable(ref.channel_id)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if view is not None:
            kwargs["view"] = view
        await channel.get_partial_message(ref.message_id).edit(**kwargs)

    async def disable_buttons(self, channel_id: int, message: discord.Message | None) -> None:
        """Grey out every lesson button of a message (e.g. a Next that has been used)."""
        view = disabled_view(message) if message is not None else None
        if message is not None and view is not None:
            await self.edit(MessageRef(channel_id, message.id), message.content, view)
