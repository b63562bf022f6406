"""The lesson driven on Discord: the fake Discord, the real discord.py client, a host."""

from __future__ import annotations

import contextlib
import itertools
import string
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.discord_adapter import LessonBot
from bot.engine import LessonEngine
from bot.process.upkeep import fire_once
from bot.verifier import Checker
from fakes.discord_processes import BotProcess, start_bot_process
from fakes.fake_discord import (
    EPHEMERAL,
    RESPONSE_WINDOW,
    Call,
    FakeDiscord,
    FakeUser,
    PrivateReply,
    SentInteraction,
)
from fakes.held_requests import Hold
from storage import SqlRunStore
from tests.discord_adapter.helpers import (
    DiscordBots,
    LessonDriver,
    buttons,
    discord_settings,
    missing_edits,
    serving_fake_discord,
    step_id,
)
from tests.platforms.driver import Person, Platform, Sent, T
from tests.platforms.views import (
    SHOWS_NOTHING,
    SHOWS_REPLY,
    SHOWS_THINKING,
    Ack,
    Button,
    Chart,
    Edit,
    Post,
    Reply,
    found_inert,
)

SHOWN_BY_RESPONSE = {4: SHOWS_REPLY, 5: SHOWS_THINKING, 6: SHOWS_NOTHING, 7: SHOWS_REPLY}
"""What each kind of interaction response shows the member who clicked."""
FORM = 9
"""The interaction response that opens a form (a modal)."""
SETTLE_SECONDS = 10.0
"""At most this long for the interactions in flight to be answered (`settle`)."""
MARKUP = frozenset("*_~|`[<")
"""What starts or ends a format, a masked link, a mention, a channel or a time in Discord's
markdown, unless a backslash escapes it."""


class DiscordPost(Post):
    """A channel message, as the fake holds it (edits change it in place)."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message

    @property
    def text(self) -> str:
        """The content and every embed's title, description and fields."""
        parts = [str(self.message.get("content") or "")]
        for embed in self.message.get("embeds") or []:
            parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
            parts.append(str((embed.get("footer") or {}).get("text") or ""))
        return "\n".join(parts)

    @property
    def buttons(self) -> list[Button]:
        """Every button, row by row; a disabled one cannot be clicked."""
        return [
            Button(str(item.get("label") or ""), item["custom_id"], not item.get("disabled"))
            for item in buttons(self.message)
        ]

    @property
    def is_step(self) -> bool:
        """Step messages start with "**Step n of N**"."""
        return step_id(self.message) is not None


class DiscordPlatform(Platform):
    """A server with a lesson channel, its host Hazel, and members made on demand."""

    name = "discord"
    ack_window = RESPONSE_WINDOW
    keeps_closed_buttons = True

    def __init__(self, fake: FakeDiscord, checker: Checker) -> None:
        self.fake = fake
        self.checker = checker
        hazel = fake.host("hazel")
        self.users: dict[str, FakeUser] = {}
        self.host = self._person(hazel)
        self.driver = LessonDriver(fake, hazel)
        self.bots: list[LessonBot] = []
        self.sent: list[tuple[Person, SentInteraction]] = []

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(cls, checker: Checker) -> AsyncIterator[DiscordPlatform]:
        """The fake Discord serving for the block, and the platform on it."""
        async with serving_fake_discord() as fake:
            yield cls(fake, checker)

    def _person(self, user: FakeUser) -> Person:
        self.users[str(user.id)] = user
        return Person(user.name, str(user.id))

    def member(self, name: str) -> Person:
        """A member with no Manage Server permission and no host role."""
        return self._person(self.fake.member(name))

    def set_locale(self, person: Person, locale: str) -> None:
        """Their client's language: each interaction they send from now on carries it."""
        self.users[person.id] = replace(self.users[person.id], locale=locale)

    def bold(self, text: str) -> str:
        """Discord's Markdown bold."""
        return f"**{text}**"

    def literally(self, shown: str, typed: str) -> bool:
        """A backslash shows the punctuation after it as itself; other markup is read."""
        seen: list[str] = []
        live: list[bool] = []
        at = 0
        while at < len(shown):
            escaped = shown[at] == "\\" and shown[at + 1 : at + 2] in tuple(string.punctuation)
            at += escaped
            seen.append(shown[at])
            live.append(not escaped and shown[at] in MARKUP)
            at += 1
        return found_inert("".join(seen), live, typed)

    @contextlib.asynccontextmanager
    async def running(self, engine: LessonEngine) -> AsyncIterator[None]:
        """The real client on `engine`, identified on the fake gateway."""
        store = engine.store
        assert isinstance(store, SqlRunStore)
        settings = discord_settings(store.database.url.render_as_string(hide_password=False))
        bots = DiscordBots(self.fake, settings, self.checker)
        try:
            self.bots.append(await bots.start(engine))
            yield
        finally:
            await bots.close()
            self.bots.clear()

    @contextlib.asynccontextmanager
    async def process(
        self, database_url: str, folder: Path, log_level: str = "INFO"
    ) -> AsyncIterator[BotProcess]:
        """`fakes.discord_bot_process` on the database, identified on the fake gateway."""
        running = await start_bot_process(self.fake, database_url, folder, "bot", log_level)
        try:
            yield running
        finally:
            await running.kill()

    async def settle(self) -> None:
        """Every interaction in flight answered, and the live counters shown."""
        for bot in self.bots:
            await bot.replies.settle(SETTLE_SECONDS)
            await bot.presenter.flush()

    def _user(self, person: Person) -> FakeUser:
        return self.users[person.id]

    def _sent(self, person: Person, interaction: SentInteraction) -> Sent:
        self.sent.append((person, interaction))
        return Sent(person, interaction)

    async def start(self) -> Post:
        """`/lesson start`, answered privately with "Started run"."""
        return DiscordPost(await self.driver.start())

    async def next_step(self) -> Post:
        """`/lesson next`, answered privately with "Moved on."."""
        return DiscordPost(await self.driver.next_step())

    async def command(
        self, name: str, user: Person | None = None, options: dict[str, str] | None = None
    ) -> Sent:
        """The slash command in the lesson's channel, with its options as Discord sends them."""
        person = user or self.host
        given: dict[str, str | int] = {  # a number goes as Discord's integer option
            key: int(value) if value.isdigit() else value for key, value in (options or {}).items()
        }
        return self._sent(
            person, await self.fake.slash(self._user(person), name, given, self.driver.channel_id)
        )

    async def forget_me(self, user: Person) -> Sent:
        """`/lesson-forget-me confirm: True`, its own command on Discord."""
        confirm = [{"name": "confirm", "type": 5, "value": True}]
        sent = await self.fake.top_command(
            self._user(user), "lesson-forget-me", self.driver.channel_id, confirm
        )
        return self._sent(user, sent)

    async def click(self, user: Person, post: Post, address: str) -> Sent:
        """A button interaction carrying the message."""
        assert isinstance(post, DiscordPost)
        return self._sent(user, await self.fake.click(self._user(user), post.message, address))

    async def send_form(self, user: Person, post: Post, address: str, text: str) -> Sent:
        """Click the button (the form opens), then submit the form it opened."""
        assert isinstance(post, DiscordPost)
        member = self._user(user)
        clicked = await self.fake.click(member, post.message, address)
        opened = await self.fake.private_reply(clicked)
        assert opened.response_type == FORM, opened
        form_id = str(opened.message["custom_id"])
        submitted = await self.fake.submit_form(member, form_id, {"answer": text}, post.message)
        return self._sent(user, submitted)

    async def burst(self, post: Post, clicks: Sequence[tuple[Person, str]]) -> list[Sent]:
        """One interaction after another on the gateway, none waiting for its answer."""
        return [await self.click(user, post, address) for user, address in clicks]

    @staticmethod
    def _interaction(sent: Sent) -> SentInteraction:
        assert isinstance(sent.ref, SentInteraction)
        return sent.ref

    @staticmethod
    def _reply(reply: PrivateReply) -> Reply:
        return DiscordPlatform._message_reply(reply.message)

    @staticmethod
    def _message_reply(message: dict[str, Any]) -> Reply:
        texts = [str(message.get("content") or "")] + [
            f"{e.get('title') or ''}\n{e.get('description') or ''}"
            for e in message.get("embeds") or []
        ]
        return Reply("\n".join(texts), bool(int(message.get("flags") or 0) & EPHEMERAL))

    async def reply(self, sent: Sent, timeout: float = 10.0) -> Reply:
        """The interaction's response, or its first follow-up after a defer."""
        return self._reply(await self.fake.private_reply(self._interaction(sent), timeout))

    async def replies(self, sent: Sequence[Sent], timeout: float = 60.0) -> list[Reply]:
        """Wait for every reply at once (cheaply), then read each."""
        interactions = [self._interaction(one) for one in sent]
        await self.fake.wait_until(self.fake.all_replied(interactions), timeout, "every reply")
        return [await self.reply(one) for one in sent]

    async def export_csv(self) -> str:
        """The file attached to the private reply to the host's export."""
        reply = await self.fake.private_reply(self._interaction(await self.command("export")))
        (upload,) = reply.call.files
        return upload.data.decode("utf-8")

    def told_in_answer(self, sent: Sent) -> list[Reply]:
        """The interaction's response (unless only deferred) and its follow-ups."""
        interaction = self._interaction(sent)
        callback = self.fake.callback_of(interaction)
        bodies = [] if callback is None else [callback.body]
        messages = [body.get("data") or {} for body in bodies if int(body["type"]) == 4]
        messages += [call.body for call in self.fake.followups_of(interaction)]
        return [self._message_reply(message) for message in messages]

    def told(self, user: Person) -> list[Reply]:
        """The replies so far to every interaction the member sent."""
        replies = [self.fake.reply_to(sent) for person, sent in self.sent if person == user]
        return [self._reply(reply) for reply in replies if reply is not None]

    async def fire_timers(self) -> int:
        """The running client's timer round, fired once more by hand."""
        return await fire_once(self.bots[0].fire_timers)

    def close_direct_messages(self, user: Person) -> None:
        """The member's privacy settings refuse messages from the server's apps."""
        self.fake.closed_dms.add(int(user.id))

    def direct_texts(self, user: Person) -> list[str]:
        """The bot's DMs to the member."""
        return [str(m.get("content") or "") for m in self.fake.direct_messages(self._user(user))]

    def hold_direct_message(self, user: Person, containing: str) -> Hold[Call]:
        """Park the message the bot sends to the member's DM channel with `containing`."""

        def matches(call: Call) -> bool:
            direct = self.fake.dm_channels.get(int(user.id))
            return (
                call.method == "POST"
                and call.path == f"/channels/{direct}/messages"
                and containing in str((call.body or {}).get("content") or "")
            )

        return self.fake.park(matches)

    def rate_limit_messages(self, times: int, retry_after: float) -> None:
        """Discord's 429, with its rate-limit headers, on the next new messages."""
        self.fake.fail("POST", r"/channels/\d+/messages$", 429, times, retry_after)

    def rate_limited(self) -> int:
        """New messages Discord answered with 429."""
        return sum(call.method == "POST" for call in self.fake.failed_with(429))

    def direct_posts(self, user: Person) -> list[Post]:
        """The bot's DMs to the member, as edits left them."""
        return [DiscordPost(message) for message in self.fake.direct_messages(self._user(user))]

    def own_posts(self, user: Person) -> list[Post]:
        """Each state of the member's ephemeral messages that had buttons, oldest first.

        The member's pass is one message moved forward in place, so each step it shows (and
        each answer's result) is a state of that message: clicking it clicks that message.
        """
        return [
            DiscordPost(shown)
            for member, shown in self.fake.ephemeral_log
            if member == int(user.id) and shown.get("components")
        ]

    def ack(self, sent: Sent) -> Ack:
        """The delay to the accepted response (None: none yet), and what that response showed."""
        interaction = self._interaction(sent)
        callback = self.fake.callback_of(interaction)
        kind = int(callback.body["type"]) if callback else None
        shows = SHOWN_BY_RESPONSE.get(kind, f"interaction response {kind}") if kind else ""
        return Ack(self.fake.ack_delay(interaction), shows)

    def posts(self) -> list[Post]:
        """The channel's messages as they look now."""
        return [DiscordPost(message) for message in self.driver.messages()]

    async def chart(self, post: Post) -> Chart:
        """The one file attached to the message, and its description."""
        assert isinstance(post, DiscordPost)
        (upload,) = self.fake.uploads[int(post.message["id"])]
        return Chart(upload.data, upload.description or "")

    def thread_posts(self, post: Post) -> list[Post]:
        """The messages of the thread started from the post's message."""
        assert isinstance(post, DiscordPost)
        return [DiscordPost(message) for message in self.fake.thread_messages(post.message)]

    def park_thread_post(self, number: int) -> Hold[Any]:
        """Park the `number`-th message posted into a thread the bot started."""
        seen = itertools.count(1)

        def in_thread(call: Call) -> bool:
            parts = call.path.strip("/").split("/")
            posted = call.method == "POST" and len(parts) == 3 and parts[2] == "messages"
            return posted and int(parts[1]) in self.fake.threads and next(seen) == number

        return self.fake.park(in_thread)

    def edits(self, post: Post) -> list[Edit]:
        """The PATCH requests on the message; an edit without components keeps the buttons."""
        assert isinstance(post, DiscordPost)
        return [
            Edit(str(edit.body.get("content") or ""), "components" not in edit.body)
            for edit in self.fake.edits_of(post.message)
        ]

    def missing_edits(self) -> list[str]:
        """The PATCH requests Discord answered 404 Unknown Message."""
        return missing_edits(self.fake)

    async def wait(
        self, condition: Callable[[], T | None], timeout: float = 15.0, what: str = "a condition"
    ) -> T:
        """Checked at every request the fake records."""
        return await self.fake.wait_until(condition, timeout, what)
