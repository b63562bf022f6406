"""Discord as the service's `Surface`: lesson messages posted and edited through the REST API.

Each posted step's reference ('discord:<channel>:<message>') is stored with the engine, so
any process can edit the message later: its live counter, or its buttons once closed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.ui import View

from bot.discord_adapter.render import (
    MAX_CONTENT,
    NO_MENTIONS,
    build_view,
    card_message,
    step_content,
    step_message,
)
from bot.engine import AssignmentCard
from bot.model import Place, ReasonCard, RevealCard, StepCard, clip
from bot.service import Card, DrawnChart, PlatformUnavailable, Redrawn

PREFIX = "discord"
FIND_WITHIN = 20
"""How many of a channel's latest messages are read to find a post whose answer was lost."""
MAX_THREAD_NAME = 100
THREAD_EXISTS = 160004
"""Discord's error code when a message already has a thread (started by an earlier try)."""
NO_THREAD = (
    "could not post in a thread under a message (HTTP %s); the bot needs Create Public "
    "Threads and Send Messages in Threads there"
)
log = logging.getLogger(__name__)


def custom_ids(message: discord.Message) -> set[str]:
    """The custom_ids of a message's buttons."""
    return {
        str(child.custom_id)
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button) and child.custom_id
    }


@contextlib.contextmanager
def unavailable_raised() -> Iterator[None]:
    """Raise `PlatformUnavailable` for a Discord server error or no answer at all."""
    try:
        yield
    except discord.DiscordServerError as error:
        raise PlatformUnavailable(f"Discord answered HTTP {error.status}") from error
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        raise PlatformUnavailable(type(error).__name__) from error


@dataclass(frozen=True)
class MessageRef:
    """A message in a channel or thread."""

    channel_id: int
    message_id: int

    def encode(self) -> str:
        """The text saved with the engine, e.g. 'discord:123:456'."""
        return f"{PREFIX}:{self.channel_id}:{self.message_id}"

    @classmethod
    def decode(cls, text: str | None) -> MessageRef | None:
        """Read a saved reference back; None for anything that is not one of ours."""
        parts = (text or "").split(":")
        if len(parts) != 3 or parts[0] != PREFIX or not all(p.isdigit() for p in parts[1:]):
            return None
        return cls(int(parts[1]), int(parts[2]))


class DiscordSurface:
    """Posts lesson messages to channels and threads, and edits them later by reference."""

    shows_charts = True
    shows_own_steps = True
    back_verb = "me"

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._threads: set[int] = set()
        """Messages known to have a thread (a thread started from a message has its id)."""

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        """Post a card with its chart; its reference. Discord's refusals are raised.

        A server error or no answer at all raises `PlatformUnavailable`: posted again later.
        """
        channel_id = int(channel)
        message = card_message(card, chart)
        messageable = self.client.get_partial_messageable(channel_id)
        with unavailable_raised():
            sent = await messageable.send(**message.send_kwargs())
        return MessageRef(channel_id, sent.id).encode()

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        """Post in the public thread started from the message `under` (starting it first).

        None, logged, if Discord refuses (no Create Public Threads, or not a text channel).
        """
        where = MessageRef.decode(under)
        if where is None:
            return None
        try:
            with unavailable_raised():
                thread = await self._thread_from(where, title)
                return None if thread is None else await self.post(str(thread), card, chart)
        except discord.HTTPException as error:
            log.warning(NO_THREAD, error.status)
            return None

    async def _thread_from(self, where: MessageRef, title: str) -> int | None:
        """The thread started from a message (it has the message's id); None if none can be."""
        if where.message_id in self._threads:
            return where.message_id
        channel = self.client.get_channel(where.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(where.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None  # a thread, a forum or a direct message has no threads under messages
        message = channel.get_partial_message(where.message_id)
        try:
            await message.create_thread(name=clip(title, MAX_THREAD_NAME))
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:  # else an earlier try (or process) started it
                raise
        self._threads.add(where.message_id)
        return where.message_id

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        """Redraw a step's text line and, once closed or superseded, its buttons.

        Of a reveal, only its buttons; of an assignment card or a reason (hidden), all of it.
        """
        where = MessageRef.decode(ref)
        if where is None:
            return False
        if isinstance(card, AssignmentCard | ReasonCard):
            message = card_message(card, None)  # no buttons left: none shown
            await self._edit(where, message.content, message.view or View(), message.embeds)
            return True
        redraw_buttons = isinstance(card, RevealCard) or card.closed or card.superseded
        view = build_view(card.buttons) if redraw_buttons else None
        content = step_content(card) if isinstance(card, StepCard) else None
        await self._edit(where, content, view)
        return True

    async def message_member(
        self, place: Place, user_id: str, text: str, card: StepCard | None = None
    ) -> bool:
        """A direct message (a card, if given); False if refused (403); else raised, for later."""
        sent: dict[str, Any] = step_message(card).send_kwargs() if card else {
            "content": clip(text, MAX_CONTENT), "allowed_mentions": NO_MENTIONS}
        try:
            with unavailable_raised():
                direct = await self.client.create_dm(discord.Object(int(user_id)))
                await direct.send(**sent)
        except discord.Forbidden as error:  # such as 50007: the member's DMs are closed
            log.info("could not message a member privately: HTTP %s", error.status)
            return False
        except discord.HTTPException as error:
            raise PlatformUnavailable(f"Discord answered HTTP {error.status}") from error
        return True

    async def find(self, channel: str, card: StepCard | RevealCard) -> str | None:
        """The bot's recent message whose buttons are exactly the card's (Read Message History).

        None if there is none among the last `FIND_WITHIN`, or the channel cannot be read.
        """
        wanted = {button.address for button in card.buttons}
        me = self.client.user
        if not wanted or me is None:
            return None
        messageable = self.client.get_partial_messageable(int(channel))
        try:
            async for message in messageable.history(limit=FIND_WITHIN):
                if message.author.id == me.id and custom_ids(message) == wanted:
                    return MessageRef(int(channel), message.id).encode()
        except discord.HTTPException as error:
            log.warning("could not read the channel's recent messages: %s", error.status)
        return None

    async def _edit(
        self,
        ref: MessageRef,
        content: str | None,
        view: View | None,
        embeds: list[discord.Embed] | None = None,
    ) -> None:
        channel = self.client.get_partial_messageable(ref.channel_id)
        kwargs: dict[str, Any] = {"content": content, "view": view, "embeds": embeds}
        kwargs = {key: value for key, value in kwargs.items() if value is not None}
        message = channel.get_partial_message(ref.message_id)
        await message.edit(**kwargs, allowed_mentions=NO_MENTIONS)
