"""A host moving a lesson to a question through the fake Discord, with `/lesson` commands."""

from __future__ import annotations

from typing import Any

from fakes.fake_discord import CHANNEL_ID, FakeDiscord, FakeUser

Message = dict[str, Any]
STEP_PREFIX = "**Step "
TOKEN = "bench-token-7c3e0b41"
"""The bot token (the fake accepts any)."""


def button_ids(message: Message) -> list[str]:
    """The custom_id of every button of a message, row by row."""
    return [str(item["custom_id"]) for row in message.get("components") or []
            for item in row["components"]]


def step_of(message: Message) -> str | None:
    """The id of the step a message shows (read from its first button), or None for others."""
    ids = button_ids(message)
    if not ids or not str(message.get("content") or "").startswith(STEP_PREFIX):
        return None
    return ids[0].split(":")[2]


def run_of(message: Message) -> int:
    """The run a lesson message belongs to, read from its first button's address."""
    return int(button_ids(message)[0].split(":")[1])


async def command(fake: FakeDiscord, host: FakeUser, name: str) -> str:
    """`/lesson <name>` typed by the host in the lesson channel; the private reply's text."""
    sent = await fake.slash(host, name, {}, CHANNEL_ID)
    return (await fake.private_reply(sent)).content


async def step_after(fake: FakeDiscord, count: int) -> Message:
    """The first step message posted after the channel had `count` messages."""
    return await fake.wait_until(
        lambda: next((m for m in fake.channel_messages()[count:] if step_of(m)), None),
        what="a step message",
    )


async def reach(fake: FakeDiscord, host: FakeUser, wanted: str) -> Message:
    """Start a run and move on with `/lesson next` until step `wanted` is shown."""
    message = await step_command(fake, host, "start", "Started run")
    while step_of(message) != wanted:
        message = await step_command(fake, host, "next", "Moved on.")
    return message


async def step_command(fake: FakeDiscord, host: FakeUser, name: str, expected: str) -> Message:
    """A command that shows a step; the step's message (fails if the reply is unexpected)."""
    shown = len(fake.channel_messages())
    reply = await command(fake, host, name)
    if expected not in reply:
        raise RuntimeError(f"/lesson {name} answered {reply!r}")
    return await step_after(fake, shown)
