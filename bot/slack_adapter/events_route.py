"""POST /slack/events: lesson button clicks answered here, every other request by bolt.

A member's click on a lesson button is the request that arrives by the thousand when a big
channel answers a question. bolt's own path costs about a millisecond of CPU per request
(parsing the form into a request object, building a Web API client for it, running the
middleware chain, matching every listener, inspecting the listener to inject arguments);
at 2,000 clicks a second that is more than one process has, and acks queue for seconds.
A lesson click needs none of it: its signature is checked with the SDK's `SignatureVerifier`
(what bolt's verification middleware uses), its payload is read once, and it goes to the
same `LessonClicks` handler that the bolt listener calls in Socket Mode, answered when that
handler returns, as bolt does with `process_before_response`. A request without a
well-formed, fresh signature header gets 401 before its body is read at all; one whose body
is longer than Slack ever sends (`MAX_BODY`) gets 413, also unread; one whose signature does
not verify gets 401 before its body is parsed or logged; any other signed request goes to
bolt, or gets 400 if its body cannot be read.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import orjson
import yarl
from aiohttp import web
from multidict import MultiDictProxy
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.signature import SignatureVerifier

from bot.slack_adapter.listeners import LESSON_ACTION, LessonClicks

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
FORM = "application/x-www-form-urlencoded"
MAX_BODY = 256 * 1024
"""The longest body read: Slack's largest payloads (a message's blocks, a view) are far less."""
SIGNATURE_SHAPE = re.compile(r"v0=[0-9a-f]{64}")
FRESH_SECONDS = 5 * 60
"""How old a request's timestamp may be (what `SignatureVerifier` allows)."""


class EventsRoute:
    """The one route Slack posts to: signed lesson clicks first, then bolt for the rest."""

    def __init__(self, app: AsyncApp, verifier: SignatureVerifier, clicks: LessonClicks) -> None:
        self.app = app
        self.verifier = verifier
        self.clicks = clicks

    def web_app(self) -> web.Application:
        """An aiohttp application serving POST /slack/events."""
        application = web.Application(client_max_size=MAX_BODY)
        application.router.add_post(EVENTS_PATH, self.handle)
        return application

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """401 unless signed; answer a lesson click directly, and anything else through bolt."""
        if not self.signature_headers_fit(request):
            return web.Response(status=401)
        if (request.content_length or 0) > MAX_BODY:
            return web.Response(status=413)
        body = await request.read()
        if not self.signed(request, body):
            return web.Response(status=401)
        click = lesson_click(body) if request.content_type == FORM else None
        if click is None:
            return await self.by_bolt(request)
        try:
            await self.clicks.handle(acknowledged, *click)
        except Exception:
            log.exception("a Slack listener failed on a block_actions request")
            return web.Response(status=500)
        return web.Response()

    async def by_bolt(self, request: web.Request) -> web.StreamResponse:
        """Bolt's answer to a signed request; 400 for a body that is not a Slack payload."""
        try:
            bolt_request = await to_bolt_request(request)
        except (ValueError, AttributeError, TypeError):  # not JSON, or JSON but not an object
            log.warning("refused a signed Slack request whose body could not be read")
            return web.Response(status=400)
        return await to_aiohttp_response(await self.app.async_dispatch(bolt_request))

    def signature_headers_fit(self, request: web.Request) -> bool:
        """Whether the signature headers could be Slack's: a v0 signature, a fresh timestamp."""
        timestamp = request.headers.get("X-Slack-Request-Timestamp", "")
        signature = request.headers.get("X-Slack-Signature", "")
        if not SIGNATURE_SHAPE.fullmatch(signature):
            return False
        if not (timestamp.isascii() and timestamp.isdigit()):
            return False
        return abs(self.verifier.clock.now() - int(timestamp)) <= FRESH_SECONDS

    def signed(self, request: web.Request, body: bytes) -> bool:
        """Whether the request carries a valid, fresh Slack signature of its body."""
        timestamp = request.headers.get("X-Slack-Request-Timestamp", "")
        signature = request.headers.get("X-Slack-Signature", "")
        try:
            return self.verifier.is_valid(body, timestamp, signature)
        except (ValueError, TypeError):  # a header not ASCII digits, a body not UTF-8
            return False


def lesson_click(body: bytes) -> tuple[dict[str, Any], str] | None:
    """The payload and action_id of a click on one lesson button, or None for anything else."""
    payload = single_payload(body)
    if payload is None or payload.get("type") != "block_actions":
        return None
    actions = payload.get("actions")
    if not isinstance(actions, list) or len(actions) != 1 or not isinstance(actions[0], dict):
        return None
    action_id = actions[0].get("action_id")
    if not isinstance(action_id, str) or not LESSON_ACTION.match(action_id):
        return None
    return payload, action_id


def single_payload(body: bytes) -> dict[str, Any] | None:
    """The JSON object of a form body holding just `payload=...`, or None."""
    try:
        fields = form_fields(body.decode())
        payload = orjson.loads(fields["payload"]) if list(fields) == ["payload"] else None
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def form_fields(text: str) -> MultiDictProxy[str]:
    """The fields of a form-encoded body, decoded ('+' is a space).

    yarl decodes a query string in C; urllib's `parse_qs` takes about 0.1 ms for a click's
    payload, a tenth of what one click may cost under a burst.
    """
    return yarl.URL.build(query_string=text, encoded=True).query


async def acknowledged() -> None:
    """A lesson click's ack: the route answers 200 once the handler returns."""
