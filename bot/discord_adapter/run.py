"""`python -m bot discord`: run the lesson bot on Discord until stopped.

SIGTERM or SIGINT closes the bot gracefully: answers in flight are finished before it
disconnects, so a rolling restart of the bot's processes loses nothing it acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Iterator
from functools import partial

import aiohttp
import discord

from bot.discord_adapter.client import BadSharding, LessonBot, build_bot
from bot.process.event_loop import run_service
from bot.process.log_redaction import configure_logging
from bot.process.runtime import heartbeat, open_runtime
from bot.settings import MissingSetting, Settings, require_secret

log = logging.getLogger(__name__)

TOKEN_PURPOSE = (
    "The Discord bot needs its bot token: Developer Portal > your application > Bot > Reset Token."
)
UNREACHABLE = (
    "could not reach Discord. Check this machine's network connection, DNS and firewall "
    "(outgoing HTTPS to discord.com), then start the bot again"
)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
_closing: set[asyncio.Future[None]] = set()


async def run_discord(settings: Settings) -> None:
    """Connect to Discord with DISCORD_TOKEN and serve lessons from DATABASE_URL."""
    token = require_secret(settings.discord_token, "DISCORD_TOKEN", TOKEN_PURPOSE)
    configure_logging(settings.log_level, [token], settings.log_library_debug)
    for warning in settings.retired():
        log.warning(warning)
    async with open_runtime(settings) as runtime:
        bot = build_bot(settings, runtime)
        scope = f"server {settings.discord_guild_id}" if settings.discord_guild_id else "global"
        log.info("starting the Discord bot (commands: %s)", scope)
        async with bot, heartbeat(settings, runtime, partial(connected, bot)):
            with closing_on_signals(bot):
                await bot.start(token)


async def connected(client: LessonBot) -> bool:
    """Whether the bot holds an open gateway session (the health heartbeat's question)."""
    return client.gateway_open and not client.is_closed()


def run_discord_command(settings: Settings) -> int:
    """Run the bot until stopped; exit 2 with a clear message for a missing or bad token."""
    try:
        run_service(run_discord(settings))
    except (MissingSetting, BadSharding) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "error: Discord rejected DISCORD_TOKEN; reset it in the Developer Portal.",
            file=sys.stderr,
        )
        return 2
    except aiohttp.ClientConnectionError as error:
        print(f"error: {UNREACHABLE} ({type(error).__name__})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


@contextlib.contextmanager
def closing_on_signals(client: discord.Client) -> Iterator[None]:
    """While inside, SIGTERM or SIGINT closes the client gracefully (see `LessonBot.close`)."""
    loop = asyncio.get_running_loop()
    for stop in STOP_SIGNALS:
        loop.add_signal_handler(stop, partial(_close, client, stop.name))
    try:
        yield
    finally:
        for stop in STOP_SIGNALS:
            loop.remove_signal_handler(stop)


def _close(client: discord.Client, signal_name: str) -> None:
    log.info("%s received: finishing the answers in flight, then stopping", signal_name)
    closing = asyncio.ensure_future(client.close())
    _closing.add(closing)
    closing.add_done_callback(_closing.discard)
