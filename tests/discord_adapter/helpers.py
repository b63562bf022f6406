"""Driving a lesson through the fake Discord the way people in a channel would."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import SecretStr

from bot.discord_adapter import BotOptions, LessonBot, build_bot
from bot.engine import LessonEngine
from bot.model import AnswerRecord
from bot.process.runtime import Runtime
from bot.service.commands import DISCUSSING
from bot.settings import Settings
from bot.verifier import Checker
from fakes.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    HOST_ROLE_ID,
    TOKEN,
    FakeDiscord,
    FakeUser,
    PrivateReply,
)
from storage import SqlRunStore
from tests.waiting import wait_until

FIRST_STEP = "intro"
FAST = BotOptions(counter_interval=0.2, timer_interval=0.5)
"""Short intervals, so tests see live counters and timers without waiting long."""


@contextlib.asynccontextmanager
async def serving_fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord that discord.py talks to while the block runs.

    It must see no mentions, and no edit of a message in a channel that does not hold it.
    """
    server = FakeDiscord()
    await server.start()
    try:
        with server.patched():
            yield server
    finally:
        await server.close()
    assert_no_mentions(server)
    assert_no_missing_edits(server)


def discord_settings(database_url: str) -> Settings:
    """Settings as the bot would read them, without any .env file."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        discord_token=SecretStr(TOKEN),
        discord_guild_id=GUILD_ID,
        lesson_host_role_id=HOST_ROLE_ID,
    )


class DiscordBots:
    """Real bots started in this process against the fake; all closed together."""

    def __init__(self, fake: FakeDiscord, settings: Settings, checker: Checker) -> None:
        self.fake = fake
        self.settings = settings
        self.checker = checker
        self.running: list[tuple[LessonBot, asyncio.Task[None]]] = []

    async def start(self, engine: LessonEngine, options: BotOptions = FAST) -> LessonBot:
        """Start a bot on `engine` and wait until it identified on the gateway."""
        store = engine.store
        assert isinstance(store, SqlRunStore)
        runtime = Runtime(engine, store, self.checker, store.database)
        bot = build_bot(self.settings, runtime, options)
        task = asyncio.create_task(bot.start(TOKEN))
        self.running.append((bot, task))
        await self.fake.wait_identified(len(self.running))
        return bot

    async def close(self) -> None:
        """Close every bot started, in order."""
        for bot, task in self.running:
            await bot.close()
            await task


def assert_no_mentions(fake: FakeDiscord) -> None:
    """Every message the bot sent or edited had mentions switched off."""
    for call in fake.calls:
        body = call.body if isinstance(call.body, dict) else {}
        message = body.get("data") or {} if call.path.startswith("/interactions/") else body
        if "content" in message or "embeds" in message:
            assert message.get("allowed_mentions") == {"parse": []}, (call.method, call.path)


def missing_edits(fake: FakeDiscord) -> list[str]:
    """Each edit answered 404 Unknown Message: the channel it named lacks the message."""
    return [f"{call.method} {call.path}" for call in fake.missing_edits]


def assert_no_missing_edits(fake: FakeDiscord) -> None:
    """Every edit named a message its channel holds (unless the test expected otherwise)."""
    wrong = [] if fake.missing_edits_expected else missing_edits(fake)
    assert not wrong, f"the bot edited messages in channels that do not hold them: {wrong}"


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button of a message, row by row."""
    return [item for row in message.get("components", []) for item in row["components"]]


def button(message: dict[str, Any], label: str = "", action: str = "", arg: str = "") -> str:
    """The custom_id of the button whose label contains `label` and whose address matches."""
    for item in buttons(message):
        parts = item["custom_id"].split(":")
        if label and label not in item.get("label", ""):
            continue
        if (action and parts[3] != action) or (arg and parts[4:] != [arg]):
            continue
        return str(item["custom_id"])
    raise AssertionError(f"no button {label or action} {arg} on message {message['id']}")


MOVED_ON = ("Moved on.", "Avanzamos al siguiente paso.")
"""The host's reply to `/lesson next`, in a run's English or Spanish."""


def step_id(message: dict[str, Any]) -> str | None:
    """The id of the step a message shows (read from its buttons), or None for others.

    A step's message starts with "**Step n of N**" ("**Paso n de N**" in Spanish).
    """
    if not str(message.get("content") or "").startswith(("**Step ", "**Paso ")):
        return None
    return str(buttons(message)[0]["custom_id"].split(":")[2])


def title(message: dict[str, Any]) -> str:
    """The title of a message's first embed."""
    embeds = message.get("embeds") or [{}]
    return str(embeds[0].get("title", ""))


class LessonDriver:
    """A host in one channel, with shortcuts to reach steps and read what was posted."""

    def __init__(self, fake: FakeDiscord, host: FakeUser, channel_id: int = CHANNEL_ID) -> None:
        self.fake = fake
        self.host = host
        self.channel_id = channel_id

    async def start(self, **options: Any) -> dict[str, Any]:
        """`/lesson start`; returns the first step's message."""
        reply = await self.command("start", **options)
        assert reply.ephemeral and "Started run" in reply.content, reply.content
        return await self.step(FIRST_STEP)

    async def command(
        self, name: str, user: FakeUser | None = None, **options: Any
    ) -> PrivateReply:
        """A `/lesson` subcommand and the private reply to it."""
        sent = await self.fake.slash(user or self.host, name, options, self.channel_id)
        return await self.fake.private_reply(sent)

    async def press(self, user: FakeUser, message: dict[str, Any], custom_id: str) -> PrivateReply:
        """A click on a button and the private reply to it."""
        sent = await self.fake.click(user, message, custom_id)
        return await self.fake.private_reply(sent)

    async def step(self, wanted: str) -> dict[str, Any]:
        """The message of the step with id `wanted`, waiting for it to be posted."""
        return await self.fake.wait_until(
            lambda: next((m for m in self.messages() if step_id(m) == wanted), None),
            what=f"step {wanted}",
        )

    async def reach(self, wanted: str) -> dict[str, Any]:
        """Start a run and move on with `/lesson next` until step `wanted` is shown."""
        return await self.reach_from(await self.start(), wanted)

    async def reach_from(self, message: dict[str, Any], wanted: str) -> dict[str, Any]:
        """Move on with `/lesson next` from the step shown by `message` until `wanted`."""
        while step_id(message) != wanted:
            message = await self.next_step()
        return message

    async def next_step(self) -> dict[str, Any]:
        """`/lesson next`; returns the message of the step it moved to."""
        shown = len(self.messages())
        reply = await self.command("next")
        assert reply.ephemeral and reply.content in MOVED_ON, reply.content
        return await self.step_after(shown)

    async def step_after(self, count: int) -> dict[str, Any]:
        """The first step message posted after the channel had `count` messages."""
        return await self.fake.wait_until(
            lambda: next((m for m in self.messages()[count:] if step_id(m)), None),
            what="the next step",
        )

    async def reveal_after(self, count: int) -> dict[str, Any]:
        """The first results message posted after the channel had `count` messages."""
        return await self.fake.wait_until(
            lambda: next(
                (m for m in self.messages()[count:] if title(m).startswith("Results")),
                None,
            ),
            what="a results message",
        )

    def messages(self) -> list[dict[str, Any]]:
        """The channel's messages as they look now."""
        return self.fake.channel_messages(self.channel_id)


def run_of(message: dict[str, Any]) -> int:
    """The run a lesson message belongs to, read from its first button's address."""
    return int(buttons(message)[0]["custom_id"].split(":")[1])


async def answers_of(store: SqlRunStore, run_id: int, kind: str = "") -> list[AnswerRecord]:
    """Every stored answer of a run (of one kind, e.g. 'checker' or 'answer', if given)."""
    return [a for a in await store.export_answers(run_id) if not kind or a.kind == kind]


async def logged(caplog: pytest.LogCaptureFixture, text: str, timeout: float = 10.0) -> None:
    """Wait until a log record containing `text` was captured."""

    async def seen() -> bool:
        return any(text in record.getMessage() for record in caplog.records)

    await wait_until(seen, timeout, f"a log line with {text!r}")


async def rate_every_attempt(
    driver: LessonDriver, member: FakeUser, message: dict[str, Any], action: str = "up"
) -> PrivateReply:
    """A member gives every attempt of a verifier step the same thumb; the last reply."""
    thumbs = [b["custom_id"] for b in buttons(message) if f":{action}:" in b["custom_id"]]
    replies = [await driver.press(member, message, custom_id) for custom_id in thumbs]
    return replies[-1]


async def answer_step(
    driver: LessonDriver, message: dict[str, Any], members: list[FakeUser]
) -> None:
    """Members answer whatever the step asks: a choice, a rating and a checker run, or a form."""
    fake = driver.fake
    actions = {item["custom_id"].split(":")[3] for item in buttons(message)}
    for n, member in enumerate(members):
        for vote in ("choose", "again"):  # a first answer; a second after a split
            if vote in actions:
                choices = [b for b in buttons(message) if f":{vote}:" in b["custom_id"]]
                await driver.press(member, message, choices[n % len(choices)]["custom_id"])
        if "up" in actions:
            await rate_every_attempt(driver, member, message)
            await driver.press(member, message, button(message, action="check"))
        if "answer" in actions:
            answer_id = button(message, action="answer")
            await fake.private_reply(await fake.click(member, message, answer_id))
            sent = await fake.submit_form(member, answer_id, {"answer": "3/4"}, message)
            await fake.private_reply(sent)


async def walk_lesson(driver: LessonDriver, members: list[FakeUser]) -> list[str]:
    """Start a run and go through every step to the end, members answering each question.

    Returns the ids of the steps shown, in order."""
    message = await driver.start()
    shown = [str(step_id(message))]
    while True:
        await answer_step(driver, message, members)
        posted = len(driver.messages())
        reply = await driver.command("next")
        if reply.content == DISCUSSING:  # the second vote's card: answered, then moved on
            message = await driver.step_after(posted)
            continue
        if reply.content not in MOVED_ON:
            assert "last step" in reply.content, reply.content
            return shown
        message = await driver.step_after(posted)
        shown.append(str(step_id(message)))
