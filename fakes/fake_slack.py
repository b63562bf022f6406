"""A small fake of Slack on 127.0.0.1: the Web API and response_urls, recording every call.

A private reply reaches a member through the response_url of their click or command (recorded
as method "respond", with the member's id from the URL), or through chat.postEphemeral;
`private_replies` reads both, so tests need not care which one carried a reply.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import WSMsgType, web

from fakes.held_requests import Hold, Holds

TEAM_ID = "T0001"
BOT_USER_ID = "UBOT"
DROP = 0
"""A `fail_next` status: close the connection without answering (a network error)."""
RESPOND = "respond"
"""The method name under which posts to a response_url are recorded."""
MAX_ALT_TEXT = 1000
MESSAGE_NOT_FOUND = "message_not_found"
"""Slack's answer to an edit of a message the channel named does not hold."""


@dataclass
class Call:
    """One request the bot made: the method, its arguments, and the HTTP status we answered."""

    method: str
    args: dict[str, Any]
    token: str = ""
    status: int = 200
    body: bytes = b""
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the call succeeded (HTTP 200 and not `ok: false`)."""
        return self.status == 200 and self.result.get("ok", True) is not False


@dataclass
class Failure:
    """A planned error answer for the next calls of one method."""

    status: int
    times: int
    retry_after: int = 0
    error: str = "ratelimited"


@dataclass
class FakeSlack:
    """The Web API methods the bot uses, plus the file upload URL of the files v2 flow."""

    admins: set[str] = field(default_factory=set)
    owners: set[str] = field(default_factory=set)
    home_teams: dict[str, str] = field(default_factory=dict)
    """Users from another organisation (Slack Connect): user id -> their own team id."""
    locales: dict[str, str] = field(default_factory=dict)
    """Each user's Slack language (user id -> "es-ES"); "en-US" for anyone not listed."""
    calls: list[Call] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    uploads: dict[str, bytes] = field(default_factory=dict)
    alt_texts: dict[str, str] = field(default_factory=dict)
    """Each uploaded file's alt_txt (what a screen reader reads for an image), by file id."""
    closed_dms: set[str] = field(default_factory=set)
    """Members who turned off direct messages from the app (its Messages tab)."""
    missing_edits: list[Call] = field(default_factory=list)
    """Edits of a message the channel named does not hold (answered `message_not_found`)."""
    missing_edits_expected: bool = False
    """Set by a test that edits a missing message on purpose."""

    def __post_init__(self) -> None:
        self._sockets: list[web.WebSocketResponse] = []
        self._failures: dict[str, Failure] = {}
        self._holds: dict[str, asyncio.Event] = {}
        self._parked = Holds[Call]()
        self._delays = Holds[Call]()
        self._changed = asyncio.Condition()
        self._numbers = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self) -> Self:
        """Serve on a random loopback port."""
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_post("/respond/{user}/{hook}", self._respond)
        app.router.add_get("/socket", self._socket)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop serving (a parked call is let go first)."""
        self._parked.release_all()
        self._delays.release_all()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def root(self) -> str:
        """The server's root URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What to pass as `AsyncWebClient(base_url=...)`."""
        return f"{self.root}/api/"

    def fail_next(
        self,
        method: str,
        times: int = 1,
        status: int = 429,
        retry_after: int = 0,
        error: str = "ratelimited",
    ) -> None:
        """Answer the next `times` calls of `method` with an error (429 with Retry-After).

        With `status=DROP` the connection is closed instead, as a network failure would.
        """
        self._failures[method] = Failure(status, times, retry_after, error)

    def response_url(self, user: str, hook: str) -> str:
        """The response_url of one interaction of `user`, as Slack puts it in a request."""
        return f"{self.root}/respond/{user}/{hook}"

    def hold(self, method: str) -> asyncio.Event:
        """Keep calls of `method` waiting, unanswered, until the returned event is set."""
        self._holds[method] = asyncio.Event()
        return self._holds[method]

    def delay(self, matches: Callable[[Call], bool]) -> Hold[Call]:
        """Keep the next call matching `matches` waiting until released; then answer it."""
        return self._delays.add(matches)

    def park(self, matches: Callable[[Call], bool]) -> Hold[Call]:
        """Leave the next call matching `matches` unanswered (and unrecorded) until closing."""
        return self._parked.add(matches)

    def private_replies(self, user: str | None = None) -> list[Call]:
        """Messages only one member sees, through a response_url or chat.postEphemeral."""
        return [c for c in self.calls if is_private_reply(c) and user in (None, c.args["user"])]

    def calls_to(self, method: str, ok_only: bool = True) -> list[Call]:
        """The recorded calls of one method (only the answered-with-200 ones by default)."""
        return [c for c in self.calls if c.method == method and (c.ok or not ok_only)]

    def user_lookups(self, locale: bool) -> list[str]:
        """The users whose users.info the bot asked, with their locale or (False) without."""
        return [
            str(call.args["user"]) for call in self.calls_to("users.info")
            if _flag(call.args.get("include_locale")) is locale
        ]

    def methods_seen(self) -> set[str]:
        """Every method the bot called successfully."""
        return {call.method for call in self.calls if call.ok}

    async def wait_for(
        self, predicate: Callable[[list[Call]], object], timeout: float = 15.0
    ) -> list[Call]:
        """Wait until `predicate(calls)` holds; fail with what was seen after `timeout`."""
        try:
            async with asyncio.timeout(timeout), self._changed:
                await self._changed.wait_for(lambda: bool(predicate(self.calls)))
        except TimeoutError:
            seen = [f"{c.method}({c.status})" for c in self.calls]
            raise AssertionError(f"condition not met within {timeout}s; calls: {seen}") from None
        return self.calls

    async def holds_for(self, predicate: Callable[[list[Call]], object], seconds: float) -> bool:
        """Whether `predicate(calls)` stays true for `seconds` (checked at every call)."""
        try:
            async with asyncio.timeout(seconds), self._changed:
                await self._changed.wait_for(lambda: not predicate(self.calls))
        except TimeoutError:
            return True
        return False

    async def _record(self, call: Call) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await _arguments(request)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if await self._parked.parked(Call(method, args, token)):
            return web.json_response({"ok": False, "error": "parked"}, status=503)
        await self._delays.parked(Call(method, args, token))
        failed = await self._planned_failure(request, Call(method, args, token))
        if failed is not None:
            return failed
        answer = self._answer(method, args)
        call = Call(method, args, token, result=answer)
        if answer.get("error") == MESSAGE_NOT_FOUND:
            self.missing_edits.append(call)
        await self._record(call)
        return web.json_response(answer)

    async def _planned_failure(self, request: web.Request, call: Call) -> web.Response | None:
        """Hold the call if asked to; then the planned error answer for it, if any (recorded)."""
        if call.method in self._holds:
            await self._holds[call.method].wait()
        failure = self._failures.get(call.method)
        if failure is None or failure.times <= 0:
            return None
        failure.times -= 1
        if failure.status == DROP:
            call.status = DROP
            return await self._drop(request, call)
        call.status, call.result = failure.status, {"ok": False, "error": failure.error}
        await self._record(call)
        headers = {"Retry-After": str(failure.retry_after)}
        return web.json_response(call.result, status=failure.status, headers=headers)

    async def _drop(self, request: web.Request, call: Call) -> web.Response:
        await self._record(call)
        assert request.transport is not None
        request.transport.abort()
        return web.Response(status=500)  # never reaches the client

    async def _upload(self, request: web.Request) -> web.Response:
        data = await request.read()
        file_id = request.match_info["file_id"]
        self.uploads[file_id] = data
        await self._record(Call("upload", {"file_id": file_id}, body=data))
        return web.Response(text=f"OK - {len(data)}", content_type="text/plain")

    async def push_envelope(self, envelope: dict[str, Any]) -> None:
        """Send a Socket Mode envelope to every connected client."""
        for socket in self._sockets:
            await socket.send_json(envelope)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_json({"type": "hello", "num_connections": 1})
        await self._record(Call("socket.connect", {}))
        async for message in socket:
            if message.type == WSMsgType.TEXT:
                await self._record(Call("socket.ack", json.loads(message.data)))
        self._sockets.remove(socket)
        return socket

    async def _respond(self, request: web.Request) -> web.Response:
        """A post to a response_url: a message for the member whose interaction it answers."""
        args = {**request.match_info, **await request.json()}
        failed = await self._planned_failure(request, Call(RESPOND, args))
        if failed is not None:
            return failed
        await self._record(Call(RESPOND, args))
        return web.Response(text="ok", content_type="text/plain")

    def _answer(self, method: str, args: dict[str, Any]) -> dict[str, Any]:
        handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "auth.test": self._auth_test,
            "chat.postMessage": self._post_message,
            "chat.update": self._update,
            "chat.postEphemeral": self._ephemeral,
            "views.open": self._views_open,
            "users.info": self._users_info,
            "files.getUploadURLExternal": self._upload_url,
            "files.completeUploadExternal": self._complete_upload,
            "apps.connections.open": self._socket_url,
            "conversations.open": self._open_dm,
        }
        handler = handlers.get(method)
        return handler(args) if handler else {"ok": False, "error": "unknown_method"}

    def _ts(self) -> str:
        return f"1700000000.{next(self._numbers):06d}"

    def _auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "url": "https://fake.slack.test/",
            "team": "Fake",
            "user": "lessonbot",
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": "BBOT",
            "is_enterprise_install": False,
        }

    def direct_messages(self, user: str) -> list[Call]:
        """The app's messages in its direct message with a member, oldest first."""
        return [
            call for call in self.calls_to("chat.postMessage")
            if call.args.get("channel") == dm_channel(user)
        ]

    def thread_replies(self, channel: str, ts: str) -> list[Call]:
        """The app's replies in the thread of the message `ts` in `channel`, oldest first."""
        return [
            call for call in self.calls_to("chat.postMessage")
            if call.args.get("channel") == channel and call.args.get("thread_ts") == ts
        ]

    def delete_message(self, channel: str, ts: str) -> None:
        """A member deletes a message: replies under it and edits of it are refused after."""
        assert self.messages.pop(ts)["channel"] == channel

    def _post_message(self, args: dict[str, Any]) -> dict[str, Any]:
        if args.get("channel") in {dm_channel(user) for user in self.closed_dms}:
            return {"ok": False, "error": "messages_tab_disabled"}
        parent = self.messages.get(str(args.get("thread_ts")), {})
        if "thread_ts" in args and parent.get("channel") != args.get("channel"):
            return {"ok": False, "error": "invalid_thread_ts"}  # no such message there
        ts = self._ts()
        self.messages[ts] = {"channel": args.get("channel"), **_content(args)}
        return {"ok": True, "channel": args.get("channel"), "ts": ts, "message": _content(args)}

    def _update(self, args: dict[str, Any]) -> dict[str, Any]:
        """Like Slack: a message is found by its channel and ts; elsewhere it is not found."""
        ts = str(args.get("ts"))
        if self.messages.get(ts, {}).get("channel") != args.get("channel"):
            return {"ok": False, "error": MESSAGE_NOT_FOUND}
        self.messages[ts].update(_content(args))
        return {"ok": True, "channel": args.get("channel"), "ts": ts, "text": args.get("text")}

    def _ephemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "message_ts": self._ts()}

    def _views_open(self, args: dict[str, Any]) -> dict[str, Any]:
        view = _json_field(args.get("view"))
        return {"ok": True, "view": {**view, "id": f"V{next(self._numbers)}"}}

    def _users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user_id = str(args.get("user"))
        user = {
            "id": user_id,
            "name": user_id.lower(),
            "team_id": self.home_teams.get(user_id, TEAM_ID),
            "is_admin": user_id in self.admins,
            "is_owner": user_id in self.owners,
            "is_primary_owner": False,
        }
        if _flag(args.get("include_locale")):  # like Slack: the locale only when asked for
            user["locale"] = self.locales.get(user_id, "en-US")
        return {"ok": True, "user": user}

    def _open_dm(self, args: dict[str, Any]) -> dict[str, Any]:
        users = str(args.get("users", ""))
        if not users or "," in users:
            return {"ok": False, "error": "user_not_found"}
        return {"ok": True, "channel": {"id": dm_channel(users)}}

    def shared_files(self, channel: str) -> list[bytes]:
        """The content of every file shared into `channel` (files v2 flow), oldest first."""
        return [self.uploads[file_id] for file_id in self._shared_ids(channel)]

    def shared_alt_texts(self, channel: str) -> list[str | None]:
        """The alt_txt of every file shared into `channel` (None where none was given)."""
        return [self.alt_texts.get(file_id) for file_id in self._shared_ids(channel)]

    def _shared_ids(self, channel: str) -> list[str]:
        return [
            f["id"]
            for call in self.calls_to("files.completeUploadExternal")
            if call.args.get("channel_id") == channel
            for f in _json_field(call.args.get("files")) or []
        ]

    def _socket_url(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/socket"}

    def _upload_url(self, args: dict[str, Any]) -> dict[str, Any]:
        """Like Slack: alt_txt is given here, per file, and may be at most 1000 characters."""
        alt_text = args.get("alt_txt")
        if alt_text is not None and len(str(alt_text)) > MAX_ALT_TEXT:
            return {"ok": False, "error": "invalid_arguments"}
        file_id = f"F{next(self._numbers):05d}"
        if alt_text is not None:
            self.alt_texts[file_id] = str(alt_text)
        return {"ok": True, "upload_url": f"{self.root}/upload/{file_id}", "file_id": file_id}

    def _complete_upload(self, args: dict[str, Any]) -> dict[str, Any]:
        files = _json_field(args.get("files")) or []
        missing = [f["id"] for f in files if f["id"] not in self.uploads]
        if missing:
            return {"ok": False, "error": "file_not_uploaded"}
        return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]}


async def _arguments(request: web.Request) -> dict[str, Any]:
    args: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        args.update(await request.json())
    elif request.can_read_body:
        args.update(await request.post())
    return args


def _flag(value: Any) -> bool:
    """A boolean argument as the Web API reads it ("1", "true", True)."""
    return str(value).lower() in {"1", "true"}


def _content(args: dict[str, Any]) -> dict[str, Any]:
    return {"text": args.get("text", ""), "blocks": _json_field(args.get("blocks")) or []}


def _json_field(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def is_private_reply(call: Call) -> bool:
    """Whether a call was a message only one member sees, and was taken."""
    if call.method == RESPOND:
        return call.ok and call.args.get("response_type") == "ephemeral"
    return call.method == "chat.postEphemeral" and call.ok


def dm_channel(user: str) -> str:
    """The id the fake gives the direct message between the bot and `user`."""
    return f"D{user}"


def block_texts(blocks: Iterable[dict[str, Any]]) -> str:
    """Every text in a list of blocks, joined by newlines (for assertions)."""
    parts: list[str] = []
    for block in blocks:
        if isinstance(block.get("text"), dict):
            parts.append(block["text"]["text"])
        parts += [field["text"] for field in block.get("fields", [])]
        parts += [e["text"] for e in block.get("elements", []) if e.get("type") == "mrkdwn"]
        parts += [e["text"]["text"] for e in block.get("elements", []) if e.get("type") == "button"]
    return "\n".join(parts)


def buttons(blocks: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Button label -> action_id, for every button in the blocks."""
    return {
        element["text"]["text"]: element["action_id"]
        for block in blocks
        if block.get("type") == "actions"
        for element in block["elements"]
    }


def action_ids(blocks: Iterable[dict[str, Any]]) -> list[str]:
    """The action_id of every button in the blocks, in order."""
    return [
        element["action_id"]
        for block in blocks
        if block.get("type") == "actions"
        for element in block["elements"]
    ]
