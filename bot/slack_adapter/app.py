"""Building the bolt `AsyncApp` on the shared service: client, surface and every listener."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.error import BoltUnhandledRequestError
from slack_sdk.signature import SignatureVerifier

from bot.engine import LessonEngine
from bot.i18n import N_
from bot.service import LessonService, Presenter
from bot.service.presenter import COUNTER_INTERVAL
from bot.settings import Settings, require_secret
from bot.slack_adapter import listeners
from bot.slack_adapter.acking import Requests
from bot.slack_adapter.events_route import EventsRoute
from bot.slack_adapter.host_rights import HostRights
from bot.slack_adapter.surface import SlackSurface, make_client, shared_session

log = logging.getLogger(__name__)

HELP_NOTE = N_(
    "Hosts are workspace admins and owners, and anyone listed in SLACK_HOST_USERS. "
    "Invite the bot to the channel first (`/invite @Lesson Bot`)."
)

BOT_TOKEN_PURPOSE = "The Slack bot needs its bot token (xoxb-...) to call the Web API."


@dataclass
class SlackBot:
    """A built Slack app and the parts a runner needs besides it."""

    app: AsyncApp
    requests: Requests
    route: EventsRoute

    @property
    def presenter(self) -> Presenter:
        """What shows steps, reveals, timers and live counters in the channels."""
        return self.requests.service.presenter

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
        await self.requests.inflight.drain()
        await self.presenter.flush()


def build_slack_bot(
    settings: Settings,
    engine: LessonEngine,
    base_url: str | None = None,
    counter_interval: float = COUNTER_INTERVAL,
) -> SlackBot:
    """The app with its listeners; its Web API client calls `base_url` or SLACK_API_URL."""
    token = require_secret(settings.slack_bot_token, "SLACK_BOT_TOKEN", BOT_TOKEN_PURPOSE)
    client = make_client(token, base_url or settings.slack_api_url)
    secret = signing_secret(settings)
    plain_bolt_lines()
    app = AsyncApp(
        client=client,
        request_verification_enabled=False,  # the events route verifies every request first
        raise_error_for_unhandled_request=True,  # to `log_request_error`, not a log of its body
        process_before_response=True,  # answered when a listener returns, after its ack (acking.py)
        name="lessonbot",
    )
    surface = SlackSurface(client)
    presenter = Presenter(engine, surface, counter_interval, settings.post_turn_lease)
    service = LessonService(engine, presenter, HELP_NOTE, recall_pace=settings.recall_pace,
                            lesson_language=settings.lesson_language,
                            tend_every=settings.tend_every())
    hosts = HostRights(surface.is_admin, settings.slack_hosts())
    engine.on_forget(hosts.forget)
    requests = Requests(service, surface, hosts, settings.burst_handling)
    engine.on_forget(requests.locales.forget)
    clicks = listeners.register(app, requests)
    app.error(log_request_error)
    route = EventsRoute(app, SignatureVerifier(secret), clicks)
    return SlackBot(app, requests, route)


UNREACHABLE = (
    "Could not reach Slack: check this machine's network connection, DNS and firewall "
    "(outgoing HTTPS to slack.com). The bot keeps trying."
)


class BoltLogLines(logging.Filter):
    """Bolt's start-up lines made plain.

    No warning that SLACK_BOT_TOKEN goes unused (the app's client carries it), and a failed
    Socket Mode connection as one line saying what to check, not a traceback at every retry.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to keep the record (a failed connection is rewritten in place)."""
        message = record.getMessage()
        if "`token` will be unused" in message:
            return False
        if message.startswith("Failed to connect"):
            record.msg, record.args = f"{message} {UNREACHABLE}", ()
            record.exc_info, record.exc_text = None, None
        return True


def plain_bolt_lines() -> None:
    """Install `BoltLogLines` on bolt's app logger, once."""
    app_log = logging.getLogger("slack_bolt.AsyncApp")
    if not any(isinstance(f, BoltLogLines) for f in app_log.filters):
        app_log.addFilter(BoltLogLines())


def build_app(settings: Settings, engine: LessonEngine, base_url: str | None = None) -> AsyncApp:
    """The bolt `AsyncApp` for these settings and this engine."""
    return build_slack_bot(settings, engine, base_url).app


def signing_secret(settings: Settings) -> str:
    """The signing secret, or (Socket Mode without one) a random one no request can match."""
    value = settings.slack_signing_secret
    if value is not None and value.get_secret_value().strip():
        return value.get_secret_value().strip()
    return secrets.token_hex(32)


async def log_request_error(error: Exception, body: dict[str, Any]) -> None:
    """Log a request no listener took, or a listener's failure, never with the request body."""
    kind = body.get("type") or "command"
    if isinstance(error, BoltUnhandledRequestError):
        log.info("no listener for a Slack %s request", kind)
    else:
        log.error("a Slack listener failed on a %s request", kind, exc_info=error)
