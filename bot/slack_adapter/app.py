"""Building the bolt `AsyncApp`: client, middleware and every listener module."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from slack_bolt.async_app import AsyncApp
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from bot.engine import LessonEngine, TimerFired
from bot.settings import Settings, require_secret
from bot.slack_adapter import actions, commands, modals
from bot.slack_adapter.chart_uploads import ChartUploader
from bot.slack_adapter.client import make_client, shared_session
from bot.slack_adapter.context import SlackContext
from bot.slack_adapter.counter import COUNTER_INTERVAL, LiveCounter
from bot.slack_adapter.credentials import BOT_TOKEN_PURPOSE
from bot.slack_adapter.events_route import EventsRoute
from bot.slack_adapter.hosts import HostDirectory
from bot.slack_adapter.messages import SlackMessages
from bot.slack_adapter.presenter import Presenter
from bot.slack_adapter.step_messages import StepMessages
from bot.slack_adapter.timer_events import TimerEvents

log = logging.getLogger(__name__)


class HasEngine(Protocol):
    """Anything holding a ready engine, such as `bot.runtime.Runtime`."""

    @property
    def engine(self) -> LessonEngine:
        """The lesson engine."""
        ...


@dataclass
class SlackBot:
    """A built Slack app and the parts a runner needs besides it."""

    app: AsyncApp
    context: SlackContext
    timers: TimerEvents
    route: EventsRoute

    async def on_timer(self, event: TimerFired) -> None:
        """Show what the engine's timer loop fired."""
        await self.timers.show(event)

    @contextlib.asynccontextmanager
    async def connected(self) -> AsyncIterator[None]:
        """Keep one HTTP session to the Web API open; at the end, let work in flight finish."""
        async with shared_session(self.app.client):
            try:
                yield
            finally:
                await self.drain()

    async def drain(self) -> None:
        """Let acknowledged requests finish showing, then flush the live counters."""
        await self.context.inflight.drain()
        await self.context.counter.flush()


def build_slack_bot(
    settings: Settings,
    runtime: HasEngine,
    base_url: str | None = None,
    counter_interval: float = COUNTER_INTERVAL,
) -> SlackBot:
    """The app with its listeners; its Web API client calls `base_url` or SLACK_API_URL."""
    token = require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE)
    client = make_client(token, base_url or settings.slack_api_url)
    secret = signing_secret(settings)
    app = AsyncApp(
        client=client,
        signing_secret=secret,
        request_verification_enabled=True,  # bad or stale signatures get 401 (HTTP mode)
        process_before_response=True,  # answered when a listener returns, after its ack (acking.py)
        name="lessonbot",
    )
    context = build_context(runtime.engine, client, settings.slack_hosts(), counter_interval)
    buttons = actions.register(app, context)  # bolt tries listeners in order: clicks first
    commands.register(app, context)
    modals.register(app, context)
    app.error(log_listener_error)
    route = EventsRoute(app, SignatureVerifier(secret), buttons)
    return SlackBot(app, context, TimerEvents(context.engine, context.presenter), route)


def build_app(settings: Settings, runtime: HasEngine, base_url: str | None = None) -> AsyncApp:
    """The bolt `AsyncApp` for these settings and this runtime."""
    return build_slack_bot(settings, runtime, base_url).app


def build_context(
    engine: LessonEngine, client: AsyncWebClient, hosts: set[str], counter_interval: float
) -> SlackContext:
    """The shared parts the listeners work with."""
    messages = SlackMessages(client)
    steps = StepMessages(engine, messages)
    counter = LiveCounter(steps, counter_interval)
    presenter = Presenter(steps, messages, counter, ChartUploader(messages))
    return SlackContext(engine, HostDirectory(client, hosts), messages, presenter, counter)


def signing_secret(settings: Settings) -> str:
    """The signing secret, or (Socket Mode without one) a random one no request can match."""
    value = settings.slack_signing_secret
    if value is not None and value.get_secret_value().strip():
        return value.get_secret_value().strip()
    return secrets.token_hex(32)


async def log_listener_error(error: Exception, body: dict[str, Any]) -> None:
    """Log a listener's unexpected failure (without the request body)."""
    log.error(
        "a Slack listener failed on a %s request", body.get("type") or "command", exc_info=error
    )
