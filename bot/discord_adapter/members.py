"""Who acted, where, with which rights, and which lesson button or form it was."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import Action, is_lesson_address, parse_address
from bot.model import LessonBotError, Place
from bot.service import Actor, fixed_rights

Interaction = discord.Interaction[discord.Client]

PLATFORM = "discord"
NO_SERVER = "dm"


def is_host(interaction: Interaction, host_role_id: int | None) -> bool:
    """Hosts have Manage Server (or Administrator) or the role whose id is `host_role_id`."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    roles = getattr(interaction.user, "roles", [])
    return host_role_id is not None and any(role.id == host_role_id for role in roles)


def place_of(interaction: Interaction) -> Place:
    """The channel or thread an interaction came from; each holds its own run."""
    server = str(interaction.guild_id) if interaction.guild_id else NO_SERVER
    return Place(PLATFORM, server, str(interaction.channel_id))


def actor_of(interaction: Interaction, host_role_id: int | None) -> Actor:
    """The member who acted, where, with host rights decided from the interaction."""
    user = interaction.user
    rights = fixed_rights(is_host(interaction, host_role_id))
    return Actor(str(user.id), user.display_name, place_of(interaction), rights)


def lesson_custom_id(interaction: Interaction) -> str | None:
    """The custom_id of a lesson button or answer form the interaction carries; else None."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    return custom_id if is_lesson_address(custom_id) else None


def action_of(custom_id: str) -> Action | None:
    """What a lesson button does; None for a malformed one (the service refuses it)."""
    try:
        return parse_address(custom_id).action
    except LessonBotError:
        return None
