"""Driving the real bolt app over signed HTTP requests, and reading what it sent to Slack."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.engine import LessonCatalog
from fakes.fake_slack import TEAM_ID, Call, FakeSlack, action_ids, block_texts, buttons

SIGNING_SECRET = "test-signing-secret-1234"
BOT_TOKEN = "xoxb-1111-2222-testtokenvalue"
HOST = "UHOST"
LISTED_HOST = "ULISTED"
ALICE = "UALICE"
BOB = "UBOB"
CHANNEL = "CLESSON"
ACK_DEADLINE = 3.0
LESSON = LessonCatalog().get("rlvr")
TOTAL = len(LESSON.steps)

_triggers = itertools.count(1)


def sign(body: str, timestamp: int, secret: str = SIGNING_SECRET) -> str:
    """Slack's v0 request signature."""
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


async def eventually(check: Callable[[], Awaitable[object]], timeout: float = 15.0) -> None:
    """Wait until an async check (e.g. on the database) passes, or fail after `timeout`."""
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.01)


def signed_headers(
    body: str,
    content_type: str,
    timestamp: int | None = None,
    secret: str = SIGNING_SECRET,
    retry: int | None = None,
) -> dict[str, str]:
    """The headers Slack sends with a request body, signed (and marked as a retry if asked)."""
    stamp = int(time.time()) if timestamp is None else timestamp
    headers = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": str(stamp),
        "X-Slack-Signature": sign(body, stamp, secret),
    }
    if retry is not None:
        headers |= {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
    return headers


def step_number(step_id: str) -> int:
    """A step's number (1-based) in the lesson."""
    return next(n for n, step in enumerate(LESSON.steps, start=1) if step.id == step_id)


def new_trigger() -> str:
    """A fresh trigger_id, as Slack issues one per interaction."""
    return f"trigger-{next(_triggers)}-{time.monotonic_ns()}"


class SlackDriver:
    """Sends what Slack would send; reads what the bot sent back to the fake."""

    def __init__(self, url: str, fake: FakeSlack, session: aiohttp.ClientSession) -> None:
        self.url = url
        self.fake = fake
        self.session = session

    async def send(
        self,
        body: str,
        content_type: str,
        timestamp: int | None = None,
        secret: str = SIGNING_SECRET,
        retry: int | None = None,
    ) -> int:
        """POST a signed request; assert it was acknowledged within 3 seconds."""
        headers = signed_headers(body, content_type, timestamp, secret, retry)
        started = time.monotonic()
        async with self.session.post(self.url, data=body.encode(), headers=headers) as response:
            await response.read()
        assert time.monotonic() - started < ACK_DEADLINE
        return response.status

    async def command(
        self, text: str, user: str = HOST, channel: str = CHANNEL, **options: Any
    ) -> int:
        """A `/lesson` slash command (form-encoded)."""
        trigger = options.pop("trigger_id", None) or new_trigger()
        form = {
            "token": "legacy",
            "team_id": TEAM_ID,
            "team_domain": "fake",
            "channel_id": channel,
            "channel_name": "lessons",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/lesson",
            "text": text,
            "api_app_id": "A0001",
            "response_url": self.fake.response_url(user, trigger),
            "trigger_id": trigger,
        }
        return await self.send(urlencode(form), "application/x-www-form-urlencoded", **options)

    async def click(
        self,
        action_id: str,
        user: str,
        message: Call | None = None,
        channel: str = CHANNEL,
        **options: Any,
    ) -> int:
        """A block_actions payload for one button of a message."""
        trigger = options.pop("trigger_id", None) or new_trigger()
        payload = self.click_payload(action_id, user, message, channel, trigger)
        return await self.send_payload(payload, **options)

    def signed_click(self, action_id: str, user: str) -> tuple[bytes, dict[str, str]]:
        """The body and headers of a click, ready to POST (for bursts)."""
        payload = self.click_payload(action_id, user, None, CHANNEL, new_trigger())
        body = urlencode({"payload": json.dumps(payload)})
        return body.encode(), signed_headers(body, "application/x-www-form-urlencoded")

    def click_payload(
        self, action_id: str, user: str, message: Call | None, channel: str, trigger: str
    ) -> dict[str, Any]:
        """What Slack sends when `user` clicks the button `action_id` of `message`."""
        ts = message_ts(message) if message else ""
        return {
            "type": "block_actions",
            "team": {"id": TEAM_ID, "domain": "fake"},
            "user": {"id": user, "username": user.lower(), "team_id": TEAM_ID},
            "api_app_id": "A0001",
            "container": {"type": "message", "message_ts": ts, "channel_id": channel},
            "trigger_id": trigger,
            "response_url": self.fake.response_url(user, trigger),
            "channel": {"id": channel, "name": "lessons"},
            "message": self._message_of(ts),
            "actions": [
                {
                    "type": "button",
                    "action_id": action_id,
                    "block_id": "b1",
                    "value": action_id,
                    "action_ts": f"{time.time():.6f}",
                }
            ],
        }

    async def submit(self, view: dict[str, Any], text: str, user: str, **options: Any) -> int:
        """A view_submission of the answer modal the bot opened."""
        state = {"values": {"answer": {"text": {"type": "plain_text_input", "value": text}}}}
        payload = {
            "type": "view_submission",
            "team": {"id": TEAM_ID, "domain": "fake"},
            "user": {"id": user, "username": user.lower(), "team_id": TEAM_ID},
            "api_app_id": "A0001",
            "trigger_id": options.pop("trigger_id", None) or new_trigger(),
            "view": {**view, "id": "V1", "state": state},
        }
        return await self.send_payload(payload, **options)

    async def send_payload(self, payload: dict[str, Any], **options: Any) -> int:
        """An interactivity request: `payload=<json>` form-encoded."""
        body = urlencode({"payload": json.dumps(payload)})
        return await self.send(body, "application/x-www-form-urlencoded", **options)

    def _message_of(self, ts: str) -> dict[str, Any]:
        stored = self.fake.messages.get(ts, {})
        return {
            "type": "message",
            "ts": ts,
            "text": stored.get("text", ""),
            "blocks": stored.get("blocks", []),
        }

    # --- reading what the bot sent -------------------------------------------------

    def posts(self) -> list[Call]:
        """Every chat.postMessage, oldest first."""
        return self.fake.calls_to("chat.postMessage")

    async def wait_post(
        self, text: str, timeout: float = 15.0, after: int = 0, channel: str | None = None
    ) -> Call:
        """The first message posted whose blocks contain `text`.

        Only posts in `channel` count, if given, and only after the first `after` of them.
        """
        await self.fake.wait_for(lambda _: self._find_post(text, after, channel), timeout)
        found = self._find_post(text, after, channel)
        assert found is not None
        return found

    def posts_in(self, channel: str, text: str = "") -> list[Call]:
        """Messages posted in one channel, optionally only those whose blocks contain `text`."""
        return [
            c
            for c in self.posts()
            if c.args.get("channel") == channel and text in block_texts(c.args["blocks"])
        ]

    def _find_post(self, text: str, after: int, channel: str | None) -> Call | None:
        posts = self.posts()[after:]
        return next(
            (
                c
                for c in posts
                if text in block_texts(c.args["blocks"])
                and channel in (None, c.args.get("channel"))
            ),
            None,
        )

    async def wait_ephemeral(self, user: str, text: str, timeout: float = 15.0) -> Call:
        """The first ephemeral message to `user` containing `text`."""
        await self.fake.wait_for(lambda _: self.ephemerals(user, text), timeout)
        return self.ephemerals(user, text)[0]

    async def wait_refusals(self, user: str, count: int) -> None:
        """Wait until `user` was told "Only a lesson host ..." `count` times."""
        await self.fake.wait_for(lambda _: len(self.ephemerals(user, "Only")) == count)

    def ephemerals(self, user: str, text: str = "") -> list[Call]:
        """Private replies to one user, optionally only those containing `text`.

        Through the response_url of the user's request or chat.postEphemeral, whichever it was.
        """
        return [
            c
            for c in self.fake.private_replies(user)
            if text in c.args["text"] + block_texts(_blocks(c))
        ]

    async def start(self, args: str = "", user: str = HOST) -> Call:
        """Start a run as a host and return the first step's message."""
        assert await self.command(f"start {args}".strip(), user) == 200
        return await self.wait_post(f"Step 1/{TOTAL}", channel=CHANNEL)

    async def open_answer_form(self, card: Call, user: str = ALICE) -> dict[str, Any]:
        """Click the free-answer step's Answer button and return the modal the bot opened."""
        assert await self.click(self.action(card, ":answer"), user, card) == 200
        await self.fake.wait_for(lambda _: self.fake.calls_to("views.open"))
        view: dict[str, Any] = self.fake.calls_to("views.open")[0].args["view"]
        return view

    async def go_to_step(self, number: int) -> Call:
        """Move on with `/lesson next` until step `number` is posted; its message."""
        for step in range(2, number + 1):
            assert await self.command("next") == 200
            message = await self.wait_post(f"Step {step}/{TOTAL}", channel=CHANNEL)
        return message

    def action(self, message: Call, ending: str) -> str:
        """The action_id (engine address) of the button whose id ends with `ending`."""
        found = action_ids(self.fake.messages[message_ts(message)]["blocks"])
        matches = [action for action in found if action.endswith(ending)]
        assert len(matches) == 1, f"{ending!r} not unique in {list(found)}"
        return matches[0]

    def button(self, message: Call, label: str) -> str:
        """The action_id of the button whose label contains `label`."""
        found = buttons(self.fake.messages[message_ts(message)]["blocks"])
        matches = [action for text, action in found.items() if label in text]
        assert len(matches) == 1, f"{label!r} not unique in {list(found)}"
        return matches[0]


def message_ts(call: Call) -> str:
    """The ts the fake gave a posted message."""
    return str(call.result["ts"])


def _blocks(call: Call) -> list[dict[str, Any]]:
    blocks = call.args.get("blocks") or []
    return json.loads(blocks) if isinstance(blocks, str) else list(blocks)
