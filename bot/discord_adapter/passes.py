"""A member's own pass of an assignment on Discord: one private message, moved forward in place.

Start on the card, `/lesson continue` and `/lesson-me` open a fresh ephemeral message at the
member's step. Each click in it (and a form opened from it) edits it through the click's own,
always fresh, interaction, however old the message. A newer pass message takes the buttons off
the one before while a token (15 minutes) still allows, else the first click on it does (in
place, not acted on); a reload clears them all anyway. A direct message (a recall check) is
a message of its own, edited in place and never replaced: it is not remembered.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.discord_adapter.render import NO_MENTIONS, Outgoing
from bot.i18n import N_, _

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction's token lets the bot edit the messages it answered with."""
TOKEN_MARGIN = 30.0
STALE_KEPT = 10_000
"""Replaced pass messages remembered until a click retires them; the oldest are forgotten."""
RETIRED = N_("**Moved on** · your own pace goes on in the newer private message below.")


@dataclass(frozen=True)
class PassStep:
    """What a member's pass message shows next: their step, their result, or the end."""

    message: Outgoing


@dataclass(frozen=True)
class PassMessage:
    """Where a member's pass was last shown, and how to edit that message while allowed."""

    message_id: int | None
    """The message's id, where Discord gave it."""
    shown_at: float
    edit: Callable[..., Awaitable[object]]
    """Edits it: a fresh one by id (holding only the token); one edited in place as the click's
    original response (holding the click, for 15 minutes at most)."""

    def is_editable(self, now: float) -> bool:
        """Whether the interaction's token still lets the bot edit the message."""
        return now - self.shown_at < TOKEN_LIFETIME - TOKEN_MARGIN


def from_private_message(interaction: Interaction) -> bool:
    """Whether the interaction came from a message only its member sees (their pass, a DM)."""
    message = interaction.message
    return message is not None and (message.flags.ephemeral or interaction.guild_id is None)


class PrivatePasses:
    """Shows each member's pass in one ephemeral message per channel, and retires older ones."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._shown: OrderedDict[tuple[int | None, int], PassMessage] = OrderedDict()
        self._stale: OrderedDict[int, None] = OrderedDict()
        """Messages a newer pass replaced while their buttons could not be taken off."""

    async def show(self, interaction: Interaction, step: PassStep) -> None:
        """Edit the pass message the interaction came from, or else send a fresh one."""
        move = edit_in_place if from_private_message(interaction) else send_fresh
        try:
            shown = await move(interaction, step.message, self.clock())
        except discord.HTTPException as error:
            log.warning("could not show a member's own step: %s", error.text or error.status)
            return
        if interaction.guild_id is None:  # a direct message (a recall check) stands alone
            return
        await self._replace((interaction.channel_id, interaction.user.id), shown)

    def take_replaced(self, message: discord.Message | None) -> bool:
        """Whether a newer pass replaced this message while it kept its buttons; forgets it."""
        return message is not None and self._stale.pop(message.id, False) is None

    async def _replace(self, key: tuple[int | None, int], shown: PassMessage) -> None:
        """Remember where the pass is now, while editable; an older message loses its buttons."""
        previous = self._shown.pop(key, None)
        self._shown[key] = shown
        while not next(iter(self._shown.values())).is_editable(shown.shown_at):
            self._shown.popitem(last=False)  # the oldest first; `shown` itself is editable
        if previous is None or (previous.message_id or 0) == shown.message_id:
            return  # the same message, moved on in place
        retired = previous.is_editable(shown.shown_at) and await retire(previous.edit)
        if not retired and previous.message_id is not None:
            self._stale[previous.message_id] = None
            if len(self._stale) > STALE_KEPT:
                self._stale.popitem(last=False)


async def send_fresh(interaction: Interaction, message: Outgoing, now: float) -> PassMessage:
    """A new ephemeral message: the response, or a follow-up once the interaction is deferred."""
    kwargs = message.send_kwargs()
    if interaction.response.is_done():
        sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
        message_id: int | None = sent.id
    else:
        callback = await interaction.response.send_message(ephemeral=True, **kwargs)
        message_id = callback.message_id
    if message_id is None:  # Discord did not say: edit it as the original response
        return PassMessage(None, now, interaction.edit_original_response)
    by_id = partial(edit_sent, interaction.client, interaction.application_id, interaction.token)
    return PassMessage(message_id, now, partial(by_id, message_id))


async def edit_in_place(interaction: Interaction, message: Outgoing, now: float) -> PassMessage:
    """Redraw the message the click (or the form's button) came from, as its response."""
    kwargs = message.edit_kwargs()
    if interaction.response.is_done():  # deferred as an update of that message
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
    source = interaction.message
    return PassMessage(source.id if source else None, now, interaction.edit_original_response)


async def edit_sent(
    client: discord.Client, application_id: int, token: str, message_id: int, **kwargs: Any
) -> None:
    """Edit a message an interaction sent, by id, through that interaction's webhook."""
    webhook = discord.Webhook.partial(application_id, token, client=client)
    await webhook.edit_message(message_id, **kwargs)


async def retire(edit: Callable[..., Awaitable[object]]) -> bool:
    """Take the buttons off an older pass message and say where the pass went on; if allowed."""
    try:
        await edit(content=_(RETIRED), view=None, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:  # cleared by a reload, or its token ran out
        log.info("could not retire an older private message: %s", error.text or error.status)
        return False
    return True
