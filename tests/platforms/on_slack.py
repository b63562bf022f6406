"""The lesson driven on Slack: the fake Web API, the real bolt app over signed HTTP, a host.

A member's private reply reaches them through the response_url of what they sent (which names
the interaction) or through chat.postEphemeral (which does not). `SlackPlatform.reply` takes
the first reply to the member since they sent it that no earlier `reply` took, and that is
not the answer to another of their interactions.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import re
import string
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp

from bot.engine import LessonEngine
from bot.process.upkeep import fire_once
from bot.slack_adapter import SlackBot
from bot.slack_adapter.members import PLATFORM
from bot.verifier import Checker
from fakes.fake_slack import RESPOND, Call, FakeSlack, action_ids, block_texts, dm_channel
from fakes.held_requests import Hold
from fakes.slack_burst import fire
from fakes.slack_driver import ACK_DEADLINE, CHANNEL, HOST, SlackDriver, message_ts, new_trigger
from fakes.slack_processes import BotProcess, bot_environment, free_port
from tests.platforms.driver import Person, Platform, Sent, T
from tests.platforms.views import (
    SHOWS_NOTHING,
    Ack,
    Button,
    Chart,
    Edit,
    Post,
    Reply,
    found_inert,
)
from tests.slack_adapter.conftest import (
    assert_no_missing_edits,
    bot_for,
    finishing_background_work,
    missing_edits,
    serving,
)

STEP_MARK = re.compile(r"\b(?:Step|Paso) \d+/\d+\b")
BURST_CONNECTIONS = 100
"""Connections a burst's requests share, as Slack's own senders would spread them."""


ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
INVISIBLE = "\u200b"
"""A zero-width space: seen as nothing, but no word boundary either."""


def formats_at(text: str, at: int) -> bool:
    """Whether mrkdwn may read the character at `at` as the start or end of a format.

    A mark opens after a boundary (start, space, punctuation) before text, and closes after
    text before a boundary.
    """
    if text[at] not in "*_~`":
        return False
    before = text[at - 1] if at else " "
    after = text[at + 1] if at + 1 < len(text) else " "

    def boundary(char: str) -> bool:
        return char.isspace() or char in string.punctuation

    opens = boundary(before) and not after.isspace()
    closes = not before.isspace() and boundary(after)
    return opens or closes


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class SlackSent:
    """A request sent to the app: its trigger, its HTTP answer, and what the member had seen."""

    trigger: str
    seen: int
    """How many private replies the member had before it."""
    status: int
    seconds: float


class SlackPost(Post):
    """A chat.postMessage the app made, read through the fake's current copy of the message."""

    def __init__(self, fake: FakeSlack, call: Call) -> None:
        self.fake = fake
        self.call = call

    @property
    def blocks(self) -> list[dict[str, Any]]:
        """The message's blocks now (chat.update replaces them)."""
        blocks: list[dict[str, Any]] = self.fake.messages[message_ts(self.call)]["blocks"]
        return blocks

    @property
    def text(self) -> str:
        """Every text of the blocks, header and buttons included."""
        return block_texts(self.blocks)

    @property
    def buttons(self) -> list[Button]:
        """Every button of every actions block (Slack has no disabled buttons)."""
        return [
            Button(element["text"]["text"], element["action_id"])
            for block in self.blocks
            if block.get("type") == "actions"
            for element in block["elements"]
        ]

    @property
    def is_step(self) -> bool:
        """Step messages say "Step n/N" ("Paso n/N" in Spanish)."""
        return STEP_MARK.search(self.text) is not None


class SlackPlatform(Platform):
    """A workspace with a lesson channel, its admin as host, and members made on demand."""

    name = "slack"
    ack_window = ACK_DEADLINE
    keeps_closed_buttons = False
    host = Person(HOST.lower(), HOST)

    def __init__(self, fake: FakeSlack, checker: Checker) -> None:
        self.fake = fake
        self.checker = checker
        self._driver: SlackDriver | None = None
        self.bot: SlackBot | None = None
        self._taken: set[int] = set()

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(cls, checker: Checker) -> AsyncIterator[SlackPlatform]:
        """The fake Web API serving for the block (the host is a workspace admin).

        The block fails if the bot edited a message in a channel that does not hold it.
        """
        fake = await FakeSlack(admins={HOST}).start()
        try:
            yield cls(fake, checker)
        finally:
            await fake.close()
        assert_no_missing_edits(fake)

    @property
    def driver(self) -> SlackDriver:
        """The driver sending requests to the running app."""
        assert self._driver is not None, "no bot is running"
        return self._driver

    def member(self, name: str) -> Person:
        """A member who is not an admin; the fake sends their id lower-cased as their name."""
        user_id = "U" + re.sub(r"[^A-Z0-9]", "", name.upper())
        return Person(user_id.lower(), user_id)

    def set_locale(self, person: Person, locale: str) -> None:
        """Their Slack's language, as users.info names it once the app asks."""
        self.fake.locales[person.id] = locale

    def bold(self, text: str) -> str:
        """Slack's mrkdwn bold."""
        return f"*{text}*"

    def literally(self, shown: str, typed: str) -> bool:
        """mrkdwn: `&lt;`, `&gt;` and `&amp;` show as themselves, a bare `<` opens a link.

        `*`, `_`, `~` or a backquote formats where it can open or close (`formats_at`).
        """
        seen: list[str] = []
        live: list[bool] = []
        at = 0
        while at < len(shown):
            entity = next((e for e in ENTITIES if shown.startswith(e, at)), None)
            if entity is not None:
                seen.append(ENTITIES[entity])
                live.append(False)
                at += len(entity)
                continue
            if shown[at] != INVISIBLE:
                seen.append(shown[at])
                live.append(shown[at] == "<" or formats_at(shown, at))
            at += 1
        return found_inert("".join(seen), live, typed)

    @contextlib.asynccontextmanager
    async def running(self, engine: LessonEngine) -> AsyncIterator[None]:
        """The real app on `engine`, served in HTTP mode on 127.0.0.1."""
        bot = bot_for(engine, self.checker, self.fake)
        async with finishing_background_work(), serving(bot, self.fake) as driver:
            self._driver, self.bot = driver, bot
            try:
                yield
            finally:
                self._driver, self.bot = None, None

    @contextlib.asynccontextmanager
    async def process(
        self, database_url: str, folder: Path, log_level: str = "INFO"
    ) -> AsyncIterator[BotProcess]:
        """`python -m bot slack --http` on the database, answering HTTP."""
        env = bot_environment(self.fake, database_url) | {"LOG_LEVEL": log_level}
        running = BotProcess(free_port(), env, folder, folder / "bot.log")
        async with aiohttp.ClientSession() as session:
            try:
                await running.start()
                await running.wait_ready(session)
                self._driver = SlackDriver(running.url, self.fake, session)
                yield running
            finally:
                self._driver = None
                await running.stop()

    async def settle(self) -> None:
        """The app's work after its acks done, and its live counters shown."""
        assert self.bot is not None
        await self.bot.drain()

    async def start(self) -> Post:
        """`/lesson start` as the host; the "Step 1/N" post."""
        return SlackPost(self.fake, await self.driver.start())

    async def next_step(self) -> Post:
        """`/lesson next` as the host; the next step's post."""
        before = len(self.posts())
        await self.command("next")
        return await self.step_after(before)

    async def _sent(self, user: Person, send: Callable[[str], Awaitable[int]]) -> Sent:
        """Send with a fresh trigger_id; the request, timed, once acknowledged with HTTP 200."""
        trigger, seen = new_trigger(), len(self.fake.private_replies(user.id))
        started = time.monotonic()
        status = await send(trigger)
        assert status == 200, status
        return Sent(user, SlackSent(trigger, seen, status, time.monotonic() - started))

    async def command(
        self, name: str, user: Person | None = None, options: dict[str, str] | None = None
    ) -> Sent:
        """The slash command, form-encoded and signed; options typed as `name:value`."""
        person = user or self.host
        text = " ".join([name, *(f"{key}:{value}" for key, value in (options or {}).items())])
        return await self._sent(
            person, lambda trigger: self.driver.command(text, person.id, trigger_id=trigger)
        )

    async def forget_me(self, user: Person) -> Sent:
        """`/lesson forget-me confirm`."""
        return await self.command("forget-me confirm", user)

    async def click(self, user: Person, post: Post, address: str) -> Sent:
        """A block_actions payload for the button."""
        assert isinstance(post, SlackPost)
        channel = str(post.call.args.get("channel") or CHANNEL)
        return await self._sent(
            user,
            lambda trigger: self.driver.click(
                address, user.id, post.call, trigger_id=trigger, channel=channel
            ),
        )

    async def send_form(self, user: Person, post: Post, address: str, text: str) -> Sent:
        """Click the button, take the modal the app opened, and submit it."""
        opened = len(self.fake.calls_to("views.open"))
        await self.click(user, post, address)
        await self.wait(lambda: len(self.fake.calls_to("views.open")) > opened, what="the form")
        view = _json(self.fake.calls_to("views.open")[opened].args["view"])
        return await self._sent(
            user, lambda trigger: self.driver.submit(view, text, user.id, trigger_id=trigger)
        )

    async def burst(self, post: Post, clicks: Sequence[tuple[Person, str]]) -> list[Sent]:
        """Every click signed first, then all sent at once over `BURST_CONNECTIONS`."""
        seen = [len(self.fake.private_replies(user.id)) for user, _ in clicks]
        acks = await fire(
            self.driver, [(address, user.id) for user, address in clicks], BURST_CONNECTIONS
        )
        return [
            Sent(user, SlackSent("", before, acked.status, acked.seconds))
            for (user, _), before, acked in zip(clicks, seen, acks, strict=True)
        ]

    @staticmethod
    def _request(sent: Sent) -> SlackSent:
        assert isinstance(sent.ref, SlackSent)
        return sent.ref

    def _find(self, sent: Sent) -> Call | None:
        """The member's first reply since `sent` that answers it and that no one took."""
        return next((call for call in self._answers(sent) if id(call) not in self._taken), None)

    def _answers(self, sent: Sent) -> list[Call]:
        """The member's replies since `sent` that are not the answer to another interaction."""
        request = self._request(sent)
        return [
            call
            for call in self.fake.private_replies(sent.user.id)[request.seen :]
            if not (request.trigger and call.method == RESPOND
                    and call.args.get("hook") != request.trigger)
        ]

    def told_in_answer(self, sent: Sent) -> list[Reply]:
        """Every private reply to the member since `sent` that answers it."""
        return [self._reply(call) for call in self._answers(sent)]

    @staticmethod
    def _reply(call: Call) -> Reply:
        """The blocks' texts where it has blocks (its `text` is then the notification's)."""
        blocks = _json(call.args.get("blocks")) or []
        return Reply(block_texts(blocks) if blocks else str(call.args.get("text") or ""), True)

    async def reply(self, sent: Sent, timeout: float = 10.0) -> Reply:
        """The reply, waiting for it; it is taken, so a later `reply` reads the next one."""
        call = await self.wait(lambda: self._find(sent), timeout, f"a reply to {sent.user.id}")
        self._taken.add(id(call))
        return self._reply(call)

    async def replies(self, sent: Sequence[Sent], timeout: float = 60.0) -> list[Reply]:
        """Wait until every request has a reply (checking only those still waiting)."""
        waiting = list(sent)

        def all_answered() -> bool:
            while waiting and self._find(waiting[-1]) is not None:
                waiting.pop()
            return not waiting

        await self.wait(all_answered, timeout, "every reply")
        return [await self.reply(one) for one in sent]

    def told(self, user: Person) -> list[Reply]:
        """Every private reply to the member."""
        return [self._reply(call) for call in self.fake.private_replies(user.id)]

    async def fire_timers(self) -> int:
        """The app's timer round, fired once by hand (the test app runs no timer loop)."""
        assert self.bot is not None
        return await fire_once(partial(self.bot.requests.service.fire_timers, PLATFORM))

    def close_direct_messages(self, user: Person) -> None:
        """The member turned off the app's Messages tab."""
        self.fake.closed_dms.add(user.id)

    async def export_csv(self) -> str:
        """The file shared in the app's direct message with the host after their export."""
        shared = len(self.fake.shared_files(dm_channel(self.host.id)))
        await self.command("export")
        files = await self.wait(
            lambda: self.fake.shared_files(dm_channel(self.host.id))[shared:], what="the CSV"
        )
        return files[0].decode("utf-8")

    def direct_texts(self, user: Person) -> list[str]:
        """The app's messages in its DM with the member (their notification text)."""
        return [str(call.args.get("text") or "") for call in self.fake.direct_messages(user.id)]

    def hold_direct_message(self, user: Person, containing: str) -> Hold[Call]:
        """Park the app's `chat.postMessage` in its DM with the member with `containing`."""

        def matches(call: Call) -> bool:
            return (
                call.method == "chat.postMessage"
                and call.args.get("channel") == dm_channel(user.id)
                and containing in str(call.args.get("text") or "")
            )

        return self.fake.park(matches)

    def rate_limit_messages(self, times: int, retry_after: float) -> None:
        """Slack's 429 with Retry-After (whole seconds) on the next chat.postMessage calls."""
        self.fake.fail_next("chat.postMessage", times=times, status=429,
                            retry_after=math.ceil(retry_after))

    def rate_limited(self) -> int:
        """chat.postMessage calls Slack answered with 429."""
        calls = self.fake.calls_to("chat.postMessage", ok_only=False)
        return sum(call.status == 429 for call in calls)

    def direct_posts(self, user: Person) -> list[Post]:
        """The app's messages in its direct message with the member, as updates left them."""
        return [SlackPost(self.fake, call) for call in self.fake.direct_messages(user.id)]

    def own_posts(self, user: Person) -> list[Post]:
        """The app's messages in its direct message with the member."""
        return self.direct_posts(user)

    def ack(self, sent: Sent) -> Ack:
        """The HTTP answer: empty, so the member sees nothing until the reply comes."""
        request = self._request(sent)
        return Ack(request.seconds if request.status == 200 else None, SHOWS_NOTHING)

    def posts(self) -> list[Post]:
        """The app's posts in the lesson's channel (not its replies in threads)."""
        return [
            SlackPost(self.fake, call)
            for call in self.fake.calls_to("chat.postMessage")
            if call.args.get("channel") == CHANNEL and "thread_ts" not in call.args
        ]

    def thread_posts(self, post: Post) -> list[Post]:
        """The app's replies in the thread of the post's message."""
        assert isinstance(post, SlackPost)
        replies = self.fake.thread_replies(CHANNEL, message_ts(post.call))
        return [SlackPost(self.fake, call) for call in replies]

    def park_thread_post(self, number: int) -> Hold[Any]:
        """Park the `number`-th chat.postMessage that replies in a thread."""
        seen = itertools.count(1)

        def in_thread(call: Call) -> bool:
            threaded = call.method == "chat.postMessage" and "thread_ts" in call.args
            return threaded and next(seen) == number

        return self.fake.park(in_thread)

    def _chart_call(self, post: SlackPost) -> Call | None:
        """The first file shared into the post's channel after it was posted."""
        later = self.fake.calls[next(n for n, c in enumerate(self.fake.calls) if c is post.call) :]
        return next(
            (
                call
                for call in later
                if call.method == "files.completeUploadExternal"
                and call.ok
                and call.args.get("channel_id") == post.call.args.get("channel")
                and call.args.get("thread_ts") == post.call.args.get("thread_ts")
            ),
            None,
        )

    async def chart(self, post: Post) -> Chart:
        """The file shared after the post: its bytes, title and alt text."""
        assert isinstance(post, SlackPost)
        call = await self.wait(lambda: self._chart_call(post), what="the post's chart")
        (shared,) = _json(call.args["files"])
        words = f"{shared.get('title') or ''}\n{self.fake.alt_texts.get(shared['id'], '')}"
        return Chart(self.fake.uploads[shared["id"]], words)

    def edits(self, post: Post) -> list[Edit]:
        """The chat.update calls on the message; each must draw the same buttons again."""
        assert isinstance(post, SlackPost)
        ts = message_ts(post.call)
        posted = action_ids(_json(post.call.args["blocks"]))
        return [
            Edit(block_texts(blocks), action_ids(blocks) == posted)
            for call in self.fake.calls_to("chat.update")
            if call.args.get("ts") == ts
            for blocks in [_json(call.args["blocks"])]
        ]

    def missing_edits(self) -> list[str]:
        """The chat.update calls Slack answered `message_not_found`."""
        return missing_edits(self.fake)

    async def wait(
        self, condition: Callable[[], T | None], timeout: float = 15.0, what: str = "a condition"
    ) -> T:
        """Checked at every call the fake records."""
        found: list[T] = []

        def met(_: list[Call]) -> bool:
            value = condition()
            if value:
                found[:] = [value]
            return bool(value)

        try:
            await self.fake.wait_for(met, timeout)
        except AssertionError as error:
            raise AssertionError(f"waiting for {what}: {error}") from None
        return found[0]
