"""Persistent lesson buttons: the custom_id is the engine address, so clicks survive restarts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_adapter.clicks import handle_click
from bot.discord_adapter.context import lesson_context
from bot.discord_adapter.limits import MAX_BUTTON_LABEL, clip
from bot.engine.addresses import ADDRESS_PATTERN, is_lesson_address
from bot.engine.views import Button, Tone

ADDRESS_TEMPLATE = ADDRESS_PATTERN

STYLES = {
    Tone.PRIMARY: discord.ButtonStyle.primary,
    Tone.SECONDARY: discord.ButtonStyle.secondary,
    Tone.SUCCESS: discord.ButtonStyle.success,
    Tone.DANGER: discord.ButtonStyle.danger,
}

DiscordButton = discord.ui.Button[discord.ui.View]


class LessonButton(discord.ui.DynamicItem[DiscordButton], template=ADDRESS_TEMPLATE):
    """Any button on a lesson message, recognised by its custom_id in any process."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LessonButton:
        """Rebuild the button from a click on a message the bot posted earlier."""
        if not isinstance(item, discord.ui.Button):
            raise TypeError("lesson addresses belong to buttons")
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the lesson's click handler."""
        await handle_click(lesson_context(interaction), interaction, self.custom_id)


def discord_button(button: Button) -> LessonButton:
    """A Discord button for one of the engine's buttons."""
    return LessonButton(
        discord.ui.Button(
            style=STYLES[button.tone],
            label=clip(button.label, MAX_BUTTON_LABEL),
            custom_id=button.address,
            emoji=button.emoji or None,
            disabled=button.disabled,
            row=button.row,
        )
    )


def build_view(buttons: Sequence[Button]) -> discord.ui.View | None:
    """A view holding the buttons in the engine's rows; None when there are none."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(discord_button(button))
    return view


def disabled_view(message: discord.Message) -> discord.ui.View | None:
    """The lesson buttons of a posted message, all greyed out; None if it has none."""
    view = discord.ui.View(timeout=None)
    for item in discord.ui.View.from_message(message, timeout=None).children:
        if isinstance(item, discord.ui.Button) and is_lesson_address(item.custom_id or ""):
            item.disabled = True
            view.add_item(LessonButton(item))
    return view if view.children else None
