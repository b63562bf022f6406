"""The permissions the bot needs and the link that adds it to a server."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")
REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def invite_url(application_id: int) -> str:
    """The OAuth2 link a server admin opens to add the bot with exactly what it needs."""
    return discord.utils.oauth_url(application_id, permissions=REQUIRED_PERMISSIONS, scopes=SCOPES)
