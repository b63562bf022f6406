"""The Discord client: wiring of commands, persistent buttons, answer forms and timers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

import aiohttp
import discord
from discord import app_commands

from bot.discord_adapter.clicks import handle_click
from bot.discord_adapter.commands import LessonCommands, forget_me_command, sync_commands
from bot.discord_adapter.context import AdapterContext, Interaction
from bot.discord_adapter.counter import DEFAULT_INTERVAL as COUNTER_INTERVAL
from bot.discord_adapter.counter import LiveCounters
from bot.discord_adapter.deliveries import Deliveries
from bot.discord_adapter.hosts import lesson_custom_id
from bot.discord_adapter.invite import invite_url
from bot.discord_adapter.messenger import Messenger
from bot.discord_adapter.modals import handle_answer_form
from bot.discord_adapter.outgoing import NO_MENTIONS
from bot.discord_adapter.patches import read_gateway_fairly
from bot.discord_adapter.publisher import Publisher
from bot.discord_adapter.replies import ACK_PATIENCE, PrivateReplies
from bot.discord_adapter.sharding import shard_of
from bot.discord_adapter.timers import DEFAULT_INTERVAL as TIMER_INTERVAL
from bot.discord_adapter.timers import start_timer_loop
from bot.engine import LessonEngine
from bot.runtime import Runtime
from bot.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotOptions:
    """Tunables of the Discord bot (tests shorten the intervals)."""

    counter_interval: float = COUNTER_INTERVAL
    timer_interval: float = TIMER_INTERVAL
    patience: float = ACK_PATIENCE
    sync_commands: bool = True
    connections: int = 50
    """At most this many connections to Discord's REST API at once, kept alive."""
    drain_seconds: float = 10.0


class LessonBot(discord.Client):
    """A bot that runs lessons in channels and threads; needs no privileged intents.

    Built inside a running event loop: its pool of keep-alive connections needs one.
    """

    def __init__(self, engine: LessonEngine, settings: Settings, options: BotOptions) -> None:
        self.shard = shard_of(settings)
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=NO_MENTIONS,
            shard_id=self.shard.shard_id,
            shard_count=self.shard.shard_count,
            connector=aiohttp.TCPConnector(limit=options.connections),
        )
        read_gateway_fairly(self)
        self.tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(self)
        self.guild_id = settings.discord_guild_id
        self.options = options
        self.lesson = adapter_context(self, engine, settings.lesson_host_role, options)
        self._timers: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Register and sync the commands, start the timer loop."""
        self.tree.add_command(LessonCommands(self.lesson))
        self.tree.add_command(forget_me_command(self.lesson))
        if self.options.sync_commands and self.shard.registers_commands:
            await sync_commands(self.tree, self.guild_id)
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))
        self._timers = start_timer_loop(self.lesson, self.options.timer_interval)

    async def on_interaction(self, interaction: Interaction) -> None:
        """Buttons and answer forms are routed by custom_id, so they work after a restart too."""
        custom_id = lesson_custom_id(interaction)
        if custom_id is None:
            return
        if interaction.type is discord.InteractionType.component:
            await handle_click(self.lesson, interaction, custom_id)
        elif interaction.type is discord.InteractionType.modal_submit:
            await handle_answer_form(self.lesson, interaction)

    async def close(self) -> None:
        """Stop the timers, finish the answers in flight, show pending counts, disconnect."""
        if self._timers is not None:
            self._timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timers
            self._timers = None
            await self.lesson.replies.settle(self.options.drain_seconds)
            await self.lesson.counters.flush()
        await super().close()


def adapter_context(
    client: discord.Client, engine: LessonEngine, host_role: str, options: BotOptions
) -> AdapterContext:
    """The adapter's parts for one client: messages, counters, replies, repeat detection."""
    messenger = Messenger(client)
    counters = LiveCounters(engine, messenger, options.counter_interval)
    publisher = Publisher(engine, messenger, counters)
    replies = PrivateReplies(Deliveries(engine), options.patience)
    return AdapterContext(engine, publisher, counters, host_role, replies)


def build_bot(settings: Settings, runtime: Runtime, options: BotOptions | None = None) -> LessonBot:
    """A ready-to-start bot on a runtime's engine, configured from settings."""
    return LessonBot(runtime.engine, settings, options or BotOptions())
