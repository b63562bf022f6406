"""Running the Slack bot: Socket Mode (no public URL) or HTTP at /slack/events.

Each mode reads the secrets it needs, naming a missing variable, and every log line is
scrubbed of tokens and secrets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.process.event_loop import run_service
from bot.process.log_redaction import configure_logging
from bot.process.runtime import heartbeat, open_runtime
from bot.process.upkeep import run_timer_loop
from bot.settings import MissingSetting, Settings, require_secret
from bot.slack_adapter.app import BOT_TOKEN_PURPOSE, SlackBot, build_slack_bot
from bot.slack_adapter.events_route import EVENTS_PATH
from bot.slack_adapter.members import PLATFORM

log = logging.getLogger(__name__)

DEFAULT_PORT = 3000
BACKLOG = 2048
"""Connections waiting to be accepted (aiohttp's default, 128, drops a burst's excess)."""
APP_TOKEN_PURPOSE = "Socket Mode needs an app-level token (xapp-...) with connections:write."
SIGNING_PURPOSE = "HTTP mode needs the app's signing secret to verify requests from Slack."


async def run_socket_mode(settings: Settings) -> None:
    """Connect over Socket Mode with SLACK_BOT_TOKEN and SLACK_APP_TOKEN, until stopped."""
    credentials = socket_mode_credentials(settings)
    configure_logging(settings.log_level, credentials.secrets(), settings.log_library_debug)
    async with open_runtime(settings) as runtime:
        bot = build_slack_bot(settings, runtime.engine)
        handler = socket_mode_handler(bot, credentials.app_token)
        async with bot.connected(), running_timers(bot):
            log.info("Slack bot connecting in Socket Mode")
            await handler.connect_async()  # type: ignore[no-untyped-call]
            try:
                async with heartbeat(settings, runtime, handler.client.is_connected):
                    await until_stopped()
            finally:
                await handler.close_async()  # type: ignore[no-untyped-call]
        log.info("Slack bot stopped")


async def run_http(settings: Settings, port: int = DEFAULT_PORT, host: str = "0.0.0.0") -> None:
    """Serve Slack's requests at /slack/events, verified with SLACK_SIGNING_SECRET."""
    credentials = http_credentials(settings)
    configure_logging(settings.log_level, credentials.secrets(), settings.log_library_debug)
    async with open_runtime(settings) as runtime:
        bot = build_slack_bot(settings, runtime.engine)
        async with bot.connected(), running_timers(bot):
            runner = await start_http(bot, host, port)
            try:
                log.info("Slack bot listening on http://%s:%s%s", host, port, EVENTS_PATH)
                async with heartbeat(settings, runtime, listening):
                    await until_stopped()
            finally:
                await runner.cleanup()
        log.info("Slack bot stopped")


async def until_stopped() -> None:
    """Wait for SIGTERM or SIGINT; the caller then stops taking requests and finishes work."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop_signal, stop.set)
    try:
        await stop.wait()
    finally:
        for stop_signal in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(stop_signal)


async def listening() -> bool:
    """In HTTP mode the bot is connected while its server runs, which is while this is asked."""
    return True


def socket_mode_handler(bot: SlackBot, app_token: str) -> AsyncSocketModeHandler:
    """The Socket Mode connection for the app (its Web API client opens the socket)."""
    return AsyncSocketModeHandler(bot.app, app_token)


async def start_http(bot: SlackBot, host: str, port: int) -> web.AppRunner:
    """Start an aiohttp server for the bot at /slack/events; clean it up when done.

    No access log: a line per click would cost as much as parsing the click, and bolt
    logs what goes wrong. A long accept queue: a burst opens many connections at once. No
    lingering: a refused request's unread body is not read after the refusal either.
    """
    runner = web.AppRunner(bot.route.web_app(), access_log=None, lingering_time=0)
    await runner.setup()
    await web.TCPSite(runner, host, port, backlog=BACKLOG).start()
    return runner


@contextlib.asynccontextmanager
async def running_timers(bot: SlackBot) -> AsyncIterator[None]:
    """Post what a lost post left missing, then run the engine's timer loop until the block ends."""
    bot.presenter.start_catching_up(PLATFORM)
    loop = run_timer_loop(partial(bot.requests.service.fire_timers, PLATFORM))
    task = asyncio.create_task(loop)
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def slack_command(settings: Settings, http: bool, port: int, host: str) -> int:
    """`python -m bot slack [--http --port N]`: run until interrupted; the exit status."""
    try:
        run_service(run_http(settings, port, host) if http else run_socket_mode(settings))
    except MissingSetting as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


@dataclass(frozen=True)
class SlackCredentials:
    """The secrets a Slack process runs with; `repr` never shows them."""

    bot_token: str = field(repr=False)
    app_token: str = field(default="", repr=False)
    signing_secret: str = field(default="", repr=False)

    def secrets(self) -> list[str]:
        """Every secret value that is set, for log redaction."""
        return [value for value in (self.bot_token, self.app_token, self.signing_secret) if value]


def socket_mode_credentials(settings: Settings) -> SlackCredentials:
    """SLACK_BOT_TOKEN and SLACK_APP_TOKEN, or `MissingSetting` naming the one missing."""
    return SlackCredentials(
        bot_token=require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE),
        app_token=require_secret(settings.slack_app_token, "SLACK_APP_TOKEN", APP_TOKEN_PURPOSE),
    )


def http_credentials(settings: Settings) -> SlackCredentials:
    """SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, or `MissingSetting` naming the one missing."""
    return SlackCredentials(
        bot_token=require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE),
        signing_secret=require_secret(
            settings.slack_signing_secret, "SLACK_SIGNING_SECRET", SIGNING_PURPOSE
        ),
    )
