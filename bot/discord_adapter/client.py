"""The Discord client: the service wired to Discord's commands, buttons, forms and timers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

import aiohttp
import discord
from discord import app_commands

from bot.discord_adapter.commands import (
    HELP_NOTE,
    CatalogTranslator,
    LessonCommands,
    discord_command,
    forget_me_command,
    sync_commands,
    way_back_command,
)
from bot.discord_adapter.interactions import (
    ACK_PATIENCE,
    PLATFORM,
    Interaction,
    Interactions,
    PrivateReplies,
    lesson_custom_id,
)
from bot.discord_adapter.passes import PrivatePasses
from bot.discord_adapter.patches import read_gateway_fairly
from bot.discord_adapter.render import NO_MENTIONS
from bot.discord_adapter.surface import DiscordSurface
from bot.engine import LessonEngine
from bot.i18n import name_commands
from bot.process.runtime import Runtime
from bot.process.upkeep import run_timer_loop
from bot.service import LessonService, Presenter
from bot.service.backpressure import PendingAcks
from bot.service.presenter import COUNTER_INTERVAL
from bot.settings import Settings

log = logging.getLogger(__name__)

TIMER_INTERVAL = 1.0
SCOPES = ("bot", "applications.commands")
REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


class BadSharding(ValueError):
    """Shard settings that cannot work together."""


@dataclass(frozen=True)
class Shard:
    """This process's shard, or none (one process serves every server).

    Discord sends each server's events to one shard (`(guild_id >> 22) % shard_count`), so a
    server's clicks all reach the same process; every process shares one database.
    """

    shard_id: int | None = None
    shard_count: int | None = None

    @property
    def registers_commands(self) -> bool:
        """Only one process registers the slash commands: the unsharded one, or shard 0."""
        return not self.shard_id


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
        quiet_voice_warnings()
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=NO_MENTIONS,
            shard_id=self.shard.shard_id,
            shard_count=self.shard.shard_count,
            connector=aiohttp.TCPConnector(limit=options.connections),
        )
        acks = PendingAcks(settings.burst_handling)
        read_gateway_fairly(self, acks.reading)
        self.tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(self)
        self.guild_id = settings.discord_guild_id
        self.options = options
        self.surface = DiscordSurface(self)
        lease = settings.post_turn_lease
        self.presenter = Presenter(engine, self.surface, options.counter_interval, lease)
        self.service = LessonService(
            engine, self.presenter, HELP_NOTE, recall_pace=settings.recall_pace,
            lesson_language=settings.lesson_language, tend_every=settings.tend_every())
        passes = PrivatePasses(clock=lambda: engine.clock().timestamp())  # the bot's one clock
        self.replies = PrivateReplies(
            self.service.deliveries, options.patience, acks=acks, passes=passes)
        host_role = settings.lesson_host_role_id
        self.interactions = Interactions(self.service, self.replies, host_role)
        self._timers: asyncio.Task[None] | None = None
        self.gateway_open = False
        """Whether the gateway session is up: set on connect and resume, cleared on disconnect."""

    async def setup_hook(self) -> None:
        """Register and sync the commands, post what a lost post left missing, start the timers.

        The commands carry their names and descriptions in every language the bot speaks, and
        the bot's messages name them as the reader's client shows them.
        """
        name_commands(discord_command)
        await self.tree.set_translator(CatalogTranslator())
        run = self.interactions.command
        self.tree.add_command(LessonCommands(run, self.service.engine.catalog))
        self.tree.add_command(forget_me_command(run))
        self.tree.add_command(way_back_command(run))
        if self.options.sync_commands and self.shard.registers_commands:
            await sync_commands(self.tree, self.guild_id)
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))
        self.presenter.start_catching_up(PLATFORM)
        timers = run_timer_loop(self.fire_timers, self.options.timer_interval)
        self._timers = asyncio.get_running_loop().create_task(timers, name="lesson-timers")

    async def fire_timers(self) -> int:
        """One round of this platform's timers; what they send names commands as Discord does."""
        name_commands(discord_command)
        return await self.service.fire_timers(PLATFORM)

    async def on_connect(self) -> None:
        """The gateway session is up (READY)."""
        self.gateway_open = True

    async def on_resumed(self) -> None:
        """The gateway session is up again after a reconnect."""
        self.gateway_open = True

    async def on_disconnect(self) -> None:
        """The gateway connection was lost, or a reconnect attempt failed."""
        self.gateway_open = False

    async def on_interaction(self, interaction: Interaction) -> None:
        """Buttons and answer forms are routed by custom_id, so they work after a restart too."""
        custom_id = lesson_custom_id(interaction)
        if custom_id is not None:
            await self.interactions.lesson_item(interaction, custom_id)

    async def close(self) -> None:
        """Stop the timers, finish the answers in flight, show pending counts, disconnect."""
        if self._timers is not None:
            self._timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timers
            self._timers = None
            await self.replies.settle(self.options.drain_seconds)
            await self.presenter.flush()
        await super().close()


class NoVoiceWarnings(logging.Filter):
    """Drops discord.py's warnings that voice support is missing: the bot never joins voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to keep the record."""
        return "voice will NOT be supported" not in record.getMessage()


def quiet_voice_warnings() -> None:
    """Keep discord.py from warning at every start about voice libraries the bot does not use."""
    client_log = logging.getLogger("discord.client")
    if not any(isinstance(f, NoVoiceWarnings) for f in client_log.filters):
        client_log.addFilter(NoVoiceWarnings())


def shard_of(settings: Settings) -> Shard:
    """The shard from DISCORD_SHARD_ID and DISCORD_SHARD_COUNT, when those settings exist."""
    shard_id, shard_count = settings.discord_shard_id, settings.discord_shard_count
    if shard_id is None and shard_count is None:
        return Shard()
    if shard_id is None or shard_count is None or not 0 <= int(shard_id) < int(shard_count):
        raise BadSharding(
            "DISCORD_SHARD_ID and DISCORD_SHARD_COUNT go together, "
            "with 0 <= DISCORD_SHARD_ID < DISCORD_SHARD_COUNT."
        )
    return Shard(int(shard_id), int(shard_count))


def invite_url(application_id: int) -> str:
    """The OAuth2 link a server admin opens to add the bot with exactly what it needs."""
    return discord.utils.oauth_url(application_id, permissions=REQUIRED_PERMISSIONS, scopes=SCOPES)


def build_bot(settings: Settings, runtime: Runtime, options: BotOptions | None = None) -> LessonBot:
    """A ready-to-start bot on a runtime's engine, configured from settings."""
    return LessonBot(runtime.engine, settings, options or BotOptions())
