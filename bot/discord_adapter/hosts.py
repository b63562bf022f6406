"""Who may steer a lesson, who is acting, where, and which lesson button or form it was."""

from __future__ import annotations

from typing import Any

from bot.discord_adapter.context import Interaction
from bot.engine import Member, Place, is_lesson_address

PLATFORM = "discord"
NO_SERVER = "dm"


def is_host(interaction: Interaction, host_role: str) -> bool:
    """Hosts have Manage Server (or Administrator) or a role named `host_role`."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    wanted = host_role.casefold()
    roles = getattr(interaction.user, "roles", [])
    return any(role.name.casefold() == wanted for role in roles)


def member_of(interaction: Interaction, host_role: str) -> Member:
    """The engine's view of the member who acted, with host rights decided here."""
    user = interaction.user
    return Member(str(user.id), user.display_name, is_host(interaction, host_role))


def place_of(interaction: Interaction) -> Place:
    """The channel or thread an interaction came from; each holds its own run."""
    server = str(interaction.guild_id) if interaction.guild_id else NO_SERVER
    return Place(PLATFORM, server, str(interaction.channel_id))


def channel_of(interaction: Interaction) -> int:
    """The id of the channel or thread to post lesson messages in."""
    if interaction.channel_id is None:
        raise RuntimeError("interaction without a channel")
    return interaction.channel_id


def lesson_custom_id(interaction: Interaction) -> str | None:
    """The custom_id of a lesson button or answer form the interaction carries; else None."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    return custom_id if is_lesson_address(custom_id) else None
