"""A small fake Discord: the REST routes and gateway websocket the real discord.py client uses.

Tests point discord.py at it (`FakeDiscord.patched`; a bot in its own process is started
through `fakes.discord_bot_process`), inject interactions through the gateway (slash
commands, autocomplete, button clicks, form submits) and assert on every request the bot
made, the way a member would see its effects.

Like Discord, it keeps each member's ephemeral messages (`ephemeral_messages`) with every
state they showed, lets an interaction's token edit only that interaction's own messages and
only for 15 minutes (`advance` moves the fake's clock on), and forgets a member's ephemeral
messages when their client reloads (`reload`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

import yarl
from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from fakes.held_requests import Hold, Holds

API = "/api/v10"
APP_ID = 910000000000000001
GUILD_ID = 920000000000000001
CHANNEL_ID = 930000000000000001
OTHER_CHANNEL_ID = 930000000000000002
THREAD_ID = 940000000000000001
HOST_ROLE_ID = 950000000000000001
HOST_ROLE_NAME = "Lesson Host"
NAMESAKE_ROLE_ID = 950000000000000002
"""Another role named "Lesson Host", as anyone who may manage roles can create."""
TOKEN = "test-token-5f1d2c9a"
"""The bot token tests and benchmarks log in with (the fake accepts any)."""

EPHEMERAL = 1 << 6
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16)  # view, send, read history

RESPONSE_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction's token may send follow-ups and edit its messages."""
RATE_LIMITED = 429
UNKNOWN_MESSAGE = 10008
INVALID_WEBHOOK_TOKEN = 50027
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
CANNOT_MESSAGE_USER = 50007
UNKNOWN_MESSAGE = 10008
MISSING_PERMISSIONS = 50013
THREAD_EXISTS = 160004
PUBLIC_THREAD = 11
INVALID_FORM_BODY = 50035
MAX_ATTACHMENT_DESCRIPTION = 1024

T = TypeVar("T")


@contextmanager
def discord_pointed_at(api_url: str, gateway_url: str) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at a fake; restore them after."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


class FakeHttpError(Exception):
    """An error response, shaped like Discord's."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Upload:
    """A file the bot attached to a request, with the description it gave for screen readers."""

    field: str
    filename: str
    data: bytes
    description: str | None = None


@dataclass(frozen=True)
class Call:
    """One HTTP request the bot made (path without the /api/v10 prefix)."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: tuple[Upload, ...]
    at: float


@dataclass
class Fault:
    """The next `times` requests matching `method` and `path` fail with `status`."""

    method: str
    path: re.Pattern[str]
    status: int
    times: int
    retry_after: float

    def matches(self, call: Call) -> bool:
        """Whether this fault still applies to a request."""
        wanted = call.method == self.method and self.path.fullmatch(call.path) is not None
        return self.times > 0 and wanted

    def response(self) -> web.Response:
        """An error response shaped like Discord's (429s carry its rate-limit headers)."""
        self.times -= 1
        if self.status != RATE_LIMITED:
            return _json({"message": f"HTTP {self.status}", "code": 0}, status=self.status)
        body = {
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": False,
        }
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(math.ceil(self.retry_after)),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": str(self.retry_after),
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": "user",
        }
        return _json(body, status=RATE_LIMITED, headers=headers)


@dataclass(frozen=True)
class FakeUser:
    """A server member who clicks and types."""

    id: int
    name: str
    roles: tuple[int, ...] = ()
    permissions: int = MEMBER_PERMISSIONS
    locale: str = "en-US"
    """The language their Discord client is set to; each interaction carries it."""

    def user_payload(self) -> dict[str, Any]:
        """The user object Discord sends."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }

    def member_payload(self) -> dict[str, Any]:
        """The guild member object of an interaction, with resolved permissions."""
        return {
            "user": self.user_payload(),
            "roles": [str(role) for role in self.roles],
            "permissions": str(self.permissions),
            "joined_at": _now(),
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }


@dataclass(frozen=True)
class SentInteraction:
    """An interaction the fake delivered to the bot."""

    id: int
    token: str
    channel_id: int
    at: float


@dataclass
class EphemeralMessage:
    """A message only one member sees, as it looks now, and the interaction that sent it."""

    user_id: int
    interaction_id: int
    message: dict[str, Any]
    gone: bool = False
    """Cleared from the member's client by a reload; Discord no longer shows or edits it."""

    @property
    def id(self) -> int:
        """The message id."""
        return int(self.message["id"])

    @property
    def live_buttons(self) -> list[str]:
        """The custom_ids of the buttons the member can click on it now."""
        rows = self.message.get("components") or []
        return [
            str(item["custom_id"])
            for row in rows
            for item in row.get("components") or []
            if not item.get("disabled")
        ]


@dataclass(frozen=True)
class PrivateReply:
    """What the member who acted saw: the response (or the follow-up after a defer)."""

    response_type: int
    message: dict[str, Any]
    callback: Call
    call: Call

    @property
    def content(self) -> str:
        """The reply's text."""
        return str(self.message.get("content") or "")

    @property
    def text(self) -> str:
        """Everything the reply says: its text, then each embed's description."""
        embeds = self.message.get("embeds") or []
        return "\n".join([self.content, *(str(e.get("description") or "") for e in embeds)])

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred first (the text came as a follow-up or an edit)."""
        return self.callback is not self.call

    @property
    def ephemeral(self) -> bool:
        """Whether only the member can see it."""
        return bool(int(self.message.get("flags") or 0) & EPHEMERAL)


@dataclass
class FakeDiscord:
    """REST + gateway on 127.0.0.1 (random port), recording every request."""

    calls: list[Call] = field(default_factory=list)
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    uploads: dict[int, tuple[Upload, ...]] = field(default_factory=dict)
    identifies: list[dict[str, Any]] = field(default_factory=list)
    command_ids: dict[str, int] = field(default_factory=dict)
    failed: list[tuple[Call, int]] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    """Members who do not take direct messages from the server's apps."""
    ephemerals: dict[int, EphemeralMessage] = field(default_factory=dict)
    """Every ephemeral message, by id, as it looks now."""
    ephemeral_log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(member, message as shown) each time an ephemeral message appeared or changed."""
    expired: list[Call] = field(default_factory=list)
    """Webhook requests refused because the interaction's token was older than 15 minutes."""
    clock_offset: float = 0.0
    """Seconds the fake's clock is ahead of the event loop's (`advance`)."""
    dm_channels: dict[int, int] = field(default_factory=dict)
    """Each member's direct message channel with the bot, by user id."""
    missing_edits: list[Call] = field(default_factory=list)
    """Edits of a message the channel named does not hold (answered 404 Unknown Message)."""
    missing_edits_expected: bool = False
    """Set by a test that edits a missing message on purpose (a deleted message)."""
    threads: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Each public thread started from a message (its id is the message's): parent, name."""
    refuses_threads: bool = False
    """The bot lacks Create Public Threads: starting a thread is refused (403)."""
    posted_by: dict[int, Call] = field(default_factory=dict)
    """The request that posted each message, by message id: what the bot asked Discord for
    (its allowed_mentions, for one), which the message itself does not show."""
    guild_locale: str = "en-US"
    """The server's preferred locale, as its payloads and the interactions in it report it."""
    port: int = 0

    def __post_init__(self) -> None:
        self._ids = itertools.count(960000000000000001)
        self._users = itertools.count(970000000000000001)
        self._interactions: dict[int, SentInteraction] = {}
        self._callbacks: dict[int, Call] = {}
        self._attempts: dict[int, list[Call]] = {}
        self._followups: dict[str, list[Call]] = {}
        self._originals: dict[int, int] = {}
        """Each interaction's original response message (or the message a click updated)."""
        self._sent_by: dict[str, set[int]] = {}
        """The messages each interaction token sent, which it may edit."""
        self._first_shown: dict[int, tuple[Call, dict[str, Any]]] = {}
        self._ephemerals_of: dict[int, list[EphemeralMessage]] = {}
        """After a defer: the first follow-up or edit, and the message it showed."""
        self._payloads: dict[int, dict[str, Any]] = {}
        self._changed = asyncio.Event()
        self._sockets: list[web.WebSocketResponse] = []
        self.gateway_refused = False
        self.resumes: list[str] = []
        """The session ids the bot resumed, in order."""
        self._sequences: dict[int, int] = {}
        self._faults: list[Fault] = []
        self._holds = Holds[Call]()
        self._delays = Holds[Call]()
        self._lost = Holds[Call]()
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Serve on a free port."""
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop serving (a held request is let go first)."""
        self._holds.release_all()
        self._delays.release_all()
        self._lost.release_all()
        for socket in self._sockets:
            if not socket.closed:
                await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        """The REST base discord.py is pointed at."""
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        """Where discord.py should open its websocket."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def patched(self) -> AbstractContextManager[None]:
        """Point discord.py's REST base and default gateway at this fake."""
        return discord_pointed_at(self.api_url, self.gateway_url)

    # -- faults ----------------------------------------------------------------------------

    def fail(
        self, method: str, path: str, status: int, times: int = 1, retry_after: float = 0.2
    ) -> Fault:
        """Answer the next `times` requests `method path` (a regex) with `status`."""
        fault = Fault(method, re.compile(path), status, times, retry_after)
        self._faults.append(fault)
        return fault

    def park(self, matches: Callable[[Call], bool]) -> Hold[Call]:
        """Leave the next request matching `matches` unanswered until the fake closes."""
        return self._holds.add(matches)

    def delay(self, matches: Callable[[Call], bool]) -> Hold[Call]:
        """Keep the next request matching `matches` waiting until released; then answer it."""
        return self._delays.add(matches)

    def lose_answer(self, matches: Callable[[Call], bool]) -> Hold[Call]:
        """Do the next request matching `matches`, but keep its answer until released (then 503)."""
        return self._lost.add(matches)

    def failed_with(self, status: int) -> list[Call]:
        """The requests that were answered with the injected `status`."""
        return [call for call, code in self.failed if code == status]

    # -- time and clients ------------------------------------------------------------------

    def now(self) -> float:
        """The fake's clock: the event loop's, moved on by `advance`."""
        return asyncio.get_running_loop().time() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on: interactions sent before then grow that much older."""
        self.clock_offset += seconds

    def reload(self, user: FakeUser) -> None:
        """The member's client reloads: Discord clears their ephemeral messages."""
        for message in self._ephemerals_of.get(user.id, []):
            message.gone = True
        self._notify()

    def ephemeral_messages(self, user: FakeUser) -> list[EphemeralMessage]:
        """The member's ephemeral messages their client still shows, oldest first."""
        return [m for m in self._ephemerals_of.get(user.id, []) if not m.gone]

    def live_ephemeral_messages(self, user: FakeUser) -> list[EphemeralMessage]:
        """The member's ephemeral messages that still have a button they can click."""
        return [m for m in self.ephemeral_messages(user) if m.live_buttons]

    # -- people ----------------------------------------------------------------------------

    def member(self, name: str, locale: str = "en-US") -> FakeUser:
        """An ordinary member (no Manage Server, no host role) whose client speaks `locale`."""
        return FakeUser(next(self._users), name, locale=locale)

    def host(self, name: str, locale: str = "en-US") -> FakeUser:
        """A member with Manage Server, whose client speaks `locale`."""
        permissions = MEMBER_PERMISSIONS | MANAGE_GUILD
        return FakeUser(next(self._users), name, permissions=permissions, locale=locale)

    def role_host(self, name: str) -> FakeUser:
        """A member without Manage Server but with the Lesson Host role."""
        return FakeUser(next(self._users), name, roles=(HOST_ROLE_ID,))

    def namesake_host(self, name: str) -> FakeUser:
        """A member whose only claim is a role named "Lesson Host" that is not the host role."""
        return FakeUser(next(self._users), name, roles=(NAMESAKE_ROLE_ID,))

    # -- waiting ---------------------------------------------------------------------------

    async def wait_until(
        self, condition: Callable[[], T | None], timeout: float = 10.0, what: str = "condition"
    ) -> T:
        """Wait (without sleeping blindly) until `condition()` is truthy; return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            changed = self._changed
            with suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def wait_for(
        self, predicate: Callable[[Call], bool], timeout: float = 10.0, what: str = "a request"
    ) -> Call:
        """The first recorded request matching `predicate`, waiting for it if needed."""
        return await self.wait_until(
            lambda: next((c for c in self.calls if predicate(c)), None), timeout, what
        )

    async def wait_identified(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until the bot has identified on the gateway `count` times in total."""
        await self.wait_until(lambda: len(self.identifies) >= count, timeout, "IDENTIFY")

    async def private_reply(self, sent: SentInteraction, timeout: float = 10.0) -> PrivateReply:
        """What the member saw: the response, or the first follow-up after a defer."""
        return await self.wait_until(
            lambda: self.reply_to(sent), timeout, f"the reply to interaction {sent.id}"
        )

    def all_replied(self, sent: Sequence[SentInteraction]) -> Callable[[], bool]:
        """A cheap condition for `wait_until`: every one of `sent` got its private reply.

        It checks only the interactions still waiting, newest first, so a burst of
        thousands costs little on each request.
        """
        waiting = list(sent)

        def check() -> bool:
            while waiting and self.reply_to(waiting[-1]) is not None:
                waiting.pop()
            return not waiting

        return check

    def reply_to(self, sent: SentInteraction) -> PrivateReply | None:
        """What the member saw so far (the response, or the follow-up after a defer), if any."""
        callback = self.callback_of(sent)
        if callback is None:
            return None
        kind = int(callback.body["type"])
        if kind == 7:  # the message the click came from, as the update left it
            call, shown = self._first_shown[sent.id]
            return PrivateReply(kind, shown, callback, call)
        if kind not in (5, 6):
            return PrivateReply(kind, callback.body.get("data") or {}, callback, callback)
        first = self._first_shown.get(sent.id)
        return PrivateReply(kind, first[1], callback, first[0]) if first else None

    # -- what the channel shows ------------------------------------------------------------

    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[dict[str, Any]]:
        """Messages posted in a channel, oldest first, as they look now (after edits)."""
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    def edits_of(self, message: dict[str, Any]) -> list[Call]:
        """The PATCH requests that edited a channel message."""
        path = f"/channels/{message['channel_id']}/messages/{message['id']}"
        return [c for c in self.calls if c.method == "PATCH" and c.path == path]

    def callback_of(self, sent: SentInteraction) -> Call | None:
        """The bot's response to an interaction, if it has responded."""
        return self._callbacks.get(sent.id)

    def ack_delay(self, sent: SentInteraction) -> float | None:
        """Seconds from sending an interaction to the bot's accepted response, if any."""
        callback = self.callback_of(sent)
        return None if callback is None else callback.at - sent.at

    def callback_attempts(self, sent: SentInteraction) -> list[Call]:
        """Every response request the bot made for an interaction, accepted or not."""
        return self._attempts.get(sent.id, [])

    def followups_of(self, sent: SentInteraction) -> list[Call]:
        """The follow-up messages the bot sent for an interaction."""
        return self._followups.get(sent.token, [])

    def requests_to(self, method: str, prefix: str) -> list[Call]:
        """Recorded requests with this method whose path starts with `prefix`."""
        return [c for c in self.calls if c.method == method and c.path.startswith(prefix)]

    # -- interactions ----------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        subcommand: str,
        options: dict[str, str | int] | None = None,
        channel_id: int = CHANNEL_ID,
    ) -> SentInteraction:
        """`/lesson <subcommand> [options]` typed by `user`."""
        data = self._command_data(subcommand, options or {})
        return await self._interact(2, user, data, channel_id)

    async def top_command(
        self,
        user: FakeUser,
        name: str,
        channel_id: int = CHANNEL_ID,
        options: list[dict[str, Any]] | None = None,
    ) -> SentInteraction:
        """A top-level slash command, e.g. `/lesson-forget-me` (with `options` as Discord sends)."""
        data = {
            "id": str(self.command_ids.get(name, 1)),
            "name": name,
            "type": 1,
            "guild_id": str(GUILD_ID),
            "options": options or [],
        }
        return await self._interact(2, user, data, channel_id)

    async def autocomplete(
        self, user: FakeUser, subcommand: str, option: str, typed: str
    ) -> SentInteraction:
        """Typing into an option with autocomplete."""
        data = self._command_data(subcommand, {option: typed})
        data["options"][0]["options"][0]["focused"] = True
        return await self._interact(4, user, data, CHANNEL_ID)

    async def click(
        self, user: FakeUser, message: dict[str, Any], custom_id: str, guild_id: int = GUILD_ID
    ) -> SentInteraction:
        """A click on a button of a message the bot posted (in another server if given)."""
        data = {"custom_id": custom_id, "component_type": 2}
        channel_id = int(message["channel_id"])
        return await self._interact(3, user, data, channel_id, message, guild_id)

    async def redeliver(self, sent: SentInteraction, connection: int | None = None) -> None:
        """Send an interaction's INTERACTION_CREATE again, as a gateway replay would."""
        await self.dispatch("INTERACTION_CREATE", self._payloads[sent.id], connection)

    async def submit_form(
        self,
        user: FakeUser,
        custom_id: str,
        values: dict[str, str],
        message: dict[str, Any] | None = None,
        channel_id: int = CHANNEL_ID,
    ) -> SentInteraction:
        """Submitting a form (modal) with text inputs `values`, each in a label, as Discord does."""
        rows = [
            {"type": 18, "component": {"type": 4, "custom_id": key, "value": value}}
            for key, value in values.items()
        ]
        data = {"custom_id": custom_id, "components": rows}
        return await self._interact(5, user, data, channel_id, message)

    def _command_data(self, subcommand: str, options: dict[str, str | int]) -> dict[str, Any]:
        inner = [
            {"name": name, "type": 4 if isinstance(value, int) else 3, "value": value}
            for name, value in options.items()
        ]
        return {
            "id": str(self.command_ids.get("lesson", 1)),
            "name": "lesson",
            "type": 1,
            "guild_id": str(GUILD_ID),
            "options": [{"name": subcommand, "type": 1, "options": inner}],
        }

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        data: dict[str, Any],
        channel_id: int,
        message: dict[str, Any] | None = None,
        guild_id: int = GUILD_ID,
    ) -> SentInteraction:
        interaction_id = next(self._ids)
        sent = SentInteraction(interaction_id, f"token-{interaction_id}", channel_id, self.now())
        self._interactions[interaction_id] = sent
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(channel_id),
            "channel": self._channel_payload(channel_id),
            "member": user.member_payload(),
            "token": sent.token,
            "version": 1,
            "locale": user.locale,
            "guild_locale": self.guild_locale,
            "app_permissions": str(MEMBER_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if channel_id in self.dm_channels.values():  # a direct message: no server, no member
            for key in ("guild_id", "guild", "member", "guild_locale"):
                payload.pop(key)
            payload |= {"user": user.user_payload(), "context": 1,
                        "authorizing_integration_owners": {"0": str(guild_id)}}
        if message is not None:
            payload["message"] = message
        self._payloads[interaction_id] = payload
        await self.dispatch("INTERACTION_CREATE", payload)
        return sent

    # -- gateway ---------------------------------------------------------------------------

    async def dispatch(
        self, event: str, data: dict[str, Any], connection: int | None = None
    ) -> None:
        """Send a DISPATCH event to a connected bot: the latest one, or connection number N."""
        socket = self._connected(connection)
        self._sequences[id(socket)] = sequence = self._sequences.get(id(socket), 0) + 1
        await socket.send_json({"op": 0, "t": event, "s": sequence, "d": data})

    def _connected(self, connection: int | None) -> web.WebSocketResponse:
        candidates = self._sockets if connection is None else [self._sockets[connection]]
        open_sockets = [socket for socket in candidates if not socket.closed]
        if not open_sockets:
            raise AssertionError("no bot is connected to the fake gateway")
        return open_sockets[-1]

    async def drop_gateway(self) -> None:
        """Close every gateway connection and refuse new ones, as an outage would."""
        self.gateway_refused = True
        for socket in self._sockets:
            await socket.close()

    def restore_gateway(self) -> None:
        """Accept gateway connections again; a bot that reconnects resumes its session."""
        self.gateway_refused = False

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_refused:
            return web.Response(status=503, text="gateway unavailable")
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        async for frame in socket:
            if frame.type is not WSMsgType.TEXT:
                continue
            packet = json.loads(frame.data)
            if packet["op"] == 1:
                await socket.send_json({"op": 11})
            elif packet["op"] == 2:
                await self._identify(socket, packet["d"])
            elif packet["op"] == 6:
                await self._resume(socket, packet["d"])
        return socket

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.resumes.append(data["session_id"])
        self._sequences[id(socket)] = int(data.get("seq") or 0)
        await self.dispatch("RESUMED", {}, self._sockets.index(socket))
        self._notify()

    async def _identify(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append({k: v for k, v in data.items() if k != "token"})
        ready = {
            "v": 10,
            "user": self._bot_user(),
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": f"session-{len(self.identifies)}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
        }
        connection = self._sockets.index(socket)
        await self.dispatch("READY", ready, connection)
        await self.dispatch("GUILD_CREATE", self._guild_payload(), connection)
        self._notify()

    # -- REST ------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        body, files = await _read_body(request)
        path = "/" + request.match_info["tail"]
        call = Call(request.method, path, dict(request.query), body, files, self.now())
        self.calls.append(call)
        if await self._holds.parked(call):
            return _json({"message": "Held, never answered", "code": 0}, status=503)
        await self._delays.parked(call)
        fault = next((f for f in self._faults if f.matches(call)), None)
        if fault is not None:
            self.failed.append((call, fault.status))
            self._notify()
            return fault.response()
        try:
            answer = self._answer(call)
            self._notify()
            if await self._lost.parked(call):
                return _json({"message": "Done, answer lost", "code": 0}, status=503)
            return _json(answer)
        except FakeHttpError as error:
            return _json({"message": error.message, "code": error.code}, status=error.status)
        except LookupError:
            return _json({"message": "Unknown route", "code": 0}, status=404)
        finally:
            self._notify()

    def _answer(self, call: Call) -> Any:
        _check_descriptions(call.files)
        parts = call.path.strip("/").split("/")
        match (call.method, parts):
            case ("GET", ["gateway", "bot"]):
                limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
                return {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}
            case ("GET", ["users", "@me"]):
                return self._bot_user()
            case ("GET", ["oauth2", "applications", "@me"]):
                return self._application()
            case ("PUT", ["applications", _, "commands"]):
                return self._commands(call.body, None)
            case ("PUT", ["applications", _, "guilds", guild, "commands"]):
                return self._commands(call.body, guild)
            case ("POST", ["interactions", interaction_id, _, "callback"]):
                return self._callback(int(interaction_id), call)
            case ("POST", ["webhooks", _, token]):
                return self._followup(token, call)
            case ("PATCH", ["webhooks", _, token, "messages", message_id]):
                return self._edit_by_token(token, message_id, call)
            case ("GET", ["webhooks", _, token, "messages", message_id]):
                return self._message_of_token(token, message_id)
            case ("GET", ["channels", channel_id, "messages"]):
                newest_first = self.channel_messages(int(channel_id))[::-1]
                return newest_first[: int(call.query.get("limit", "50"))]
            case ("POST", ["users", "@me", "channels"]):
                return self._open_dm(int(call.body["recipient_id"]))
            case ("POST", ["channels", channel_id, "messages", message_id, "threads"]):
                return self._start_thread(int(channel_id), int(message_id), call.body)
            case ("GET", ["channels", channel_id]):
                return self._channel_payload(int(channel_id))
            case ("POST", ["channels", channel_id, "messages"]) if self._refuses_dm(channel_id):
                raise FakeHttpError(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")
            case ("POST", ["channels", channel_id, "messages"]):
                message = self._new_message(int(channel_id), call.body, call.files)
                self.messages[int(message["id"])] = message
                self.uploads[int(message["id"])] = call.files
                self.posted_by[int(message["id"])] = call
                return message
            case ("PATCH", ["channels", channel_id, "messages", message_id]):
                return self._edit_message(call, int(channel_id), int(message_id))
        raise LookupError(call.path)

    def _start_thread(self, channel_id: int, message_id: int, body: Any) -> dict[str, Any]:
        """Like Discord: one public thread per message, with the message's id; 403 if refused."""
        message = self.messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            raise FakeHttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        if self.refuses_threads:
            raise FakeHttpError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if message_id in self.threads:
            raise FakeHttpError(
                400, THREAD_EXISTS, "A thread has already been created for this message"
            )
        self.threads[message_id] = (channel_id, str(body["name"]))
        return self._channel_payload(message_id)

    def thread_messages(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The messages posted in the thread started from `message`, oldest first."""
        thread = int(message["id"])
        return self.channel_messages(thread) if thread in self.threads else []

    def direct_messages(self, user: FakeUser) -> list[dict[str, Any]]:
        """The bot's direct messages to a member, oldest first."""
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else self.channel_messages(channel)

    def _open_dm(self, user_id: int) -> dict[str, Any]:
        channel = self.dm_channels.setdefault(user_id, next(self._ids))
        user = FakeUser(user_id, f"user{user_id}").user_payload()
        return {"id": str(channel), "type": 1, "recipients": [user], "last_message_id": None}

    def _refuses_dm(self, channel_id: str) -> bool:
        return any(
            str(channel) == channel_id and user in self.closed_dms
            for user, channel in self.dm_channels.items()
        )

    # -- interaction messages --------------------------------------------------------------

    def _interaction_of(self, token: str, call: Call) -> SentInteraction:
        """The interaction a token belongs to; refused, like Discord, once 15 minutes old."""
        sent = self._interactions[int(token.removeprefix("token-"))]
        if call.at - sent.at > TOKEN_LIFETIME:
            self.expired.append(call)
            raise FakeHttpError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return sent

    def _followup(self, token: str, call: Call) -> dict[str, Any]:
        """A follow-up: the first after a "thinking" defer fills its loading message."""
        sent = self._interaction_of(token, call)
        self._followups.setdefault(token, []).append(call)
        callback = self._callbacks.get(sent.id)
        thinking = callback is not None and int(callback.body["type"]) == 5
        loading = self._originals.get(sent.id, 0)
        if thinking and len(self._followups[token]) == 1 and loading in self.ephemerals:
            message = self._edit_ephemeral(loading, call.body, call.files)
        else:
            message = self._new_message(sent.channel_id, call.body, call.files, webhook=True)
            if int(call.body.get("flags") or 0) & EPHEMERAL:
                self._add_ephemeral(sent.id, message, call.files)
        self._sent_by.setdefault(token, set()).add(int(message["id"]))
        self._first_shown.setdefault(sent.id, (call, dict(message)))
        return message

    def _target(self, sent: SentInteraction, token: str, message_id: str) -> int:
        """The message a token names: its original response, or one it sent."""
        if message_id == "@original":
            target = self._originals.get(sent.id)
        else:
            target = int(message_id) if int(message_id) in self._sent_by.get(token, ()) else None
        held = self.ephemerals.get(target) if target is not None else None
        known = target in self.messages or (held is not None and not held.gone)
        if target is None or not known:
            raise FakeHttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return target

    def _edit_by_token(self, token: str, message_id: str, call: Call) -> dict[str, Any]:
        sent = self._interaction_of(token, call)
        target = self._target(sent, token, message_id)
        if target in self.ephemerals:
            message = self._edit_ephemeral(target, call.body or {}, call.files)
        else:  # a channel message the interaction answered with, edited where it is
            message = self._edit_message(call, int(self.messages[target]["channel_id"]), target)
        self._first_shown.setdefault(sent.id, (call, dict(message)))
        return message

    def _message_of_token(self, token: str, message_id: str) -> dict[str, Any]:
        call = Call("GET", token, {}, None, (), self.now())
        target = self._target(self._interaction_of(token, call), token, message_id)
        held = self.ephemerals.get(target)
        return held.message if held is not None else self.messages[target]

    def _add_ephemeral(
        self, interaction_id: int, message: dict[str, Any], files: tuple[Upload, ...]
    ) -> None:
        user = int(self._payloads[interaction_id]["member"]["user"]["id"])
        held = EphemeralMessage(user, interaction_id, message)
        self.ephemerals[held.id] = held
        self._ephemerals_of.setdefault(user, []).append(held)
        self.uploads[int(message["id"])] = files
        self.ephemeral_log.append((user, dict(message)))

    def _edit_ephemeral(
        self, message_id: int, body: dict[str, Any], files: tuple[Upload, ...]
    ) -> dict[str, Any]:
        """Edit an ephemeral message: what the body gives replaces what it showed."""
        held = self.ephemerals[message_id]
        for key in ("content", "embeds", "components"):
            if key in body:
                held.message[key] = body[key] if body[key] is not None else []
        if "attachments" in body or files:
            held.message["attachments"] = [self._attachment(upload) for upload in files]
            self.uploads[message_id] = files
        held.message["edited_timestamp"] = _now()
        self.ephemeral_log.append((held.user_id, dict(held.message)))
        return held.message

    def _update_source(self, sent: SentInteraction, data: dict[str, Any], call: Call) -> None:
        """An UPDATE_MESSAGE response: the message the click or form came from is edited."""
        message_id = self._originals[sent.id]
        if message_id in self.ephemerals:
            shown = self._edit_ephemeral(message_id, data, call.files)
        else:  # the channel message the button was on, edited where it is
            shown = self._edit_message(replace(call, body=data), sent.channel_id, message_id)
        self._first_shown[sent.id] = (call, dict(shown))

    def _callback(self, interaction_id: int, call: Call) -> dict[str, Any]:
        """Like Discord: one response per interaction, within 3 seconds."""
        sent = self._interactions[interaction_id]
        self._attempts.setdefault(interaction_id, []).append(call)
        if interaction_id in self._callbacks:
            raise FakeHttpError(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if call.at - sent.at > RESPONSE_WINDOW:
            raise FakeHttpError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        kind = int(call.body["type"])
        source = self._payloads[interaction_id].get("message")
        if kind == 7 and source is None:
            raise FakeHttpError(400, INVALID_FORM_BODY, "Interaction has no message to update")
        self._callbacks[interaction_id] = call
        data = call.body.get("data") or {}
        flags = int(data.get("flags") or 0)
        info = {
            "id": str(interaction_id),
            "type": kind,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & EPHEMERAL),
        }
        result: dict[str, Any] = {"interaction": info}
        if kind in (4, 5):
            message = self._new_message(sent.channel_id, data, call.files)
            info["response_message_id"] = message["id"]
            result["resource"] = {"type": kind, "message": message}
            self._originals[interaction_id] = int(message["id"])
            self._sent_by.setdefault(sent.token, set()).add(int(message["id"]))
            if flags & EPHEMERAL:
                self._add_ephemeral(interaction_id, message, call.files)
        elif kind in (6, 7) and source is not None:  # the original is the clicked message
            self._originals[interaction_id] = int(source["id"])
        if kind == 7:
            self._update_source(sent, data, call)
        return result

    def _commands(self, body: list[dict[str, Any]], guild: str | None) -> list[dict[str, Any]]:
        echoed = []
        for command in body:
            command_id = self.command_ids.setdefault(command["name"], next(self._ids))
            extra = {"id": str(command_id), "application_id": str(APP_ID), "version": "1"}
            if guild is not None:
                extra["guild_id"] = guild
            echoed.append({"type": 1, **command, **extra})
        return echoed

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: tuple[Upload, ...],
        webhook: bool = False,
    ) -> dict[str, Any]:
        message: dict[str, Any] = {
            "id": str(next(self._ids)),
            "channel_id": str(channel_id),
            "author": self._bot_user(),
            "content": body.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment(upload) for upload in files],
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        if webhook:
            message["webhook_id"] = str(APP_ID)
        return message

    def _edit_message(self, call: Call, channel_id: int, message_id: int) -> dict[str, Any]:
        """Like Discord: a message is edited in its own channel; elsewhere it is unknown."""
        message = self.messages.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id:
            self.missing_edits.append(call)
            raise FakeHttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        body: dict[str, Any] = call.body
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message[key]
        message["edited_timestamp"] = _now()
        return message

    def _attachment(self, upload: Upload) -> dict[str, Any]:
        return {
            "id": str(next(self._ids)),
            "filename": upload.filename,
            "description": upload.description,
            "size": len(upload.data),
            "url": f"http://127.0.0.1:{self.port}/files/{upload.filename}",
            "proxy_url": f"http://127.0.0.1:{self.port}/files/{upload.filename}",
            "content_type": "image/png",
        }

    # -- fixtures of the fake world --------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "username": "RLVR Lesson",
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
        }

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "RLVR Lesson",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "verify_key": "0" * 64,
            "flags": 0,
        }

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        if channel_id == THREAD_ID or channel_id in self.threads:
            parent, name = self.threads.get(channel_id, (CHANNEL_ID, "study-thread"))
            return {
                "id": str(channel_id),
                "type": PUBLIC_THREAD,
                "guild_id": str(GUILD_ID),
                "parent_id": str(parent),
                "name": name,
                "owner_id": "1",
                "member_count": 3,
                "message_count": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now(),
                    "locked": False,
                },
            }
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": f"study-{channel_id % 100}",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    def _guild_payload(self) -> dict[str, Any]:
        everyone = {"id": str(GUILD_ID), "name": "@everyone", "permissions": "3072"}
        host_role = {"id": str(HOST_ROLE_ID), "name": HOST_ROLE_NAME, "permissions": "0"}
        namesake = {**host_role, "id": str(NAMESAKE_ROLE_ID)}
        roles = [
            {**role, "position": i, "color": 0, "hoist": False, "managed": False}
            | {"mentionable": False, "flags": 0}
            for i, role in enumerate((everyone, host_role, namesake))
        ]
        return {
            "id": str(GUILD_ID),
            "name": "Study Group",
            "owner_id": "1",
            "unavailable": False,
            "large": False,
            "member_count": 2,
            "joined_at": _now(),
            "roles": roles,
            "channels": [
                self._channel_payload(CHANNEL_ID),
                self._channel_payload(OTHER_CHANNEL_ID),
            ],
            "threads": [self._channel_payload(THREAD_ID)],
            "members": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "icon": None,
            "splash": None,
            "banner": None,
            "description": None,
            "preferred_locale": self.guild_locale,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
        }


async def _read_body(request: web.Request) -> tuple[Any, tuple[Upload, ...]]:
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        payload = json.loads(str(form.get("payload_json") or "{}"))
        described = _descriptions(payload)
        files = tuple(
            Upload(name, value.filename, value.file.read(), described.get(name))
            for name, value in form.items()
            if isinstance(value, web.FileField)
        )
        return payload, files
    text = await request.text()
    return (json.loads(text) if text else None), ()


def _descriptions(payload: Any) -> dict[str, str]:
    """Each attached file's description by its form field ('files[0]'), as payload_json gives it.

    An interaction's response carries its message, attachments included, under `data`.
    """
    if not isinstance(payload, dict):
        return {}
    data = payload.get("data")
    message: dict[str, Any] = data if isinstance(data, dict) else payload
    attachments = message.get("attachments")
    return {
        f"files[{item['id']}]": str(item["description"])
        for item in attachments or []
        if isinstance(item, dict) and item.get("description") is not None
    }


def _check_descriptions(files: tuple[Upload, ...]) -> None:
    """Like Discord, refuse an attachment description longer than 1024 characters."""
    if any(len(upload.description or "") > MAX_ATTACHMENT_DESCRIPTION for upload in files):
        raise FakeHttpError(400, INVALID_FORM_BODY, "Invalid Form Body")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses bodies whose Content-Type is exactly application/json
    body = json.dumps(data).encode()
    headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=body, status=status, headers=headers)


def _now() -> str:
    return datetime.now(UTC).isoformat()
