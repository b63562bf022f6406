"""Lesson buttons: the custom_id is the engine address, so clicks survive restarts.

The bot routes their clicks itself (`LessonBot.on_interaction`, by custom_id): the
address says everything a click needs, so discord.py keeps no view per posted message and
rebuilds none from the message on each click, which under a burst of clicks is most of
what parsing one costs.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord_adapter.limits import MAX_BUTTON_LABEL, clip
from bot.engine import Button, Tone, is_lesson_address

STYLES = {
    Tone.PRIMARY: discord.ButtonStyle.primary,
    Tone.SECONDARY: discord.ButtonStyle.secondary,
    Tone.SUCCESS: discord.ButtonStyle.success,
    Tone.DANGER: discord.ButtonStyle.danger,
}


class LessonButton(discord.ui.Button[discord.ui.View]):
    """A button on a lesson message, whose clicks the bot routes by custom_id."""

    def is_dispatchable(self) -> bool:
        """Never: discord.py need not store a view to find this button's callback."""
        return False


def discord_button(button: Button) -> LessonButton:
    """A Discord button for one of the engine's buttons."""
    return LessonButton(
        style=STYLES[button.tone],
        label=clip(button.label, MAX_BUTTON_LABEL),
        custom_id=button.address,
        emoji=button.emoji or None,
        disabled=button.disabled,
        row=button.row,
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
            view.add_item(LessonButton(
                style=item.style, label=item.label, custom_id=item.custom_id,
                emoji=item.emoji, disabled=True, row=item.row,
            ))
    return view if view.children else None
