"""A burst of button clicks through the real discord.py client, injected by the fake Discord.

The fake sends each click over the gateway as an INTERACTION_CREATE, evenly spread over about
a second, and notes when it sent it and when the bot's interaction callback (the ack)
arrived. Then the votes stored are counted, waiting with a deadline for the work the bot does
after its acks, and the PATCH requests that edited the question message are read off the fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from benchmarks.burst_discord_app import bot_process
from benchmarks.burst_discord_host import button_ids, reach, run_of
from benchmarks.burst_record import BurstRecord, BurstSizes
from benchmarks.burst_timing import paced, without_collector_pauses
from benchmarks.burst_world import (
    all_stored_by,
    first_question,
    shows_count,
    spread,
    store_on,
    stored_votes,
)
from bot.process.event_loop import run_service
from fakes.fake_discord import FakeDiscord, SentInteraction
from storage import SqlRunStore

HOST_NAME = "bench-host"
ClickOperation = Callable[[], Awaitable[SentInteraction]]


@dataclass(frozen=True)
class Question:
    """The question message the burst answers (the fake keeps it current as it is edited)."""

    message: dict[str, Any]
    run_id: int
    step_id: str
    choices: list[str]


def run_discord_burst(url: str, sizes: BurstSizes) -> BurstRecord:
    """One burst on the database at `url` (already migrated), in a fresh (fast) event loop."""
    return run_service(_burst_on(url, sizes))


async def _burst_on(url: str, sizes: BurstSizes) -> BurstRecord:
    async with FakeDiscord() as fake, bot_process(fake, url), store_on(url) as store:
        question = await open_question(fake)
        with without_collector_pauses():
            return await measure(fake, store, question, sizes)


async def open_question(fake: FakeDiscord) -> Question:
    """Start a run as a host and move on to the first prediction question."""
    step_id = first_question()
    message = await reach(fake, fake.host(HOST_NAME), step_id)
    choices = [custom_id for custom_id in button_ids(message) if ":choose:" in custom_id]
    return Question(message, run_of(message), step_id, choices)


async def measure(
    fake: FakeDiscord, store: SqlRunStore, question: Question, sizes: BurstSizes
) -> BurstRecord:
    """Fire the burst, then wait (up to the deadline) for votes, final count and replies."""
    loop = asyncio.get_running_loop()
    clicks = click_operations(fake, question, sizes.clicks)
    started = loop.time()
    sent = await paced(clicks, sizes.seconds)
    deadline = loop.time() + sizes.settle_seconds
    everything = await all_stored_by(store, question.run_id, question.step_id, sizes.clicks,
                                     deadline)
    stored_seconds = loop.time() - started if everything else None
    stored = await stored_votes(store, question.run_id, question.step_id)
    await seen_by(fake, partial(final_count_shown, question, stored), deadline)
    await seen_by(fake, fake.all_replied(sent), deadline)
    return BurstRecord(
        clicks=sizes.clicks, acks=[fake.ack_delay(one) for one in sent], stored=stored,
        replied=sum(fake.reply_to(one) is not None for one in sent),
        edit_times=[c.at - started for c in fake.edits_of(question.message) if c.at >= started],
        send_seconds=spread([one.at for one in sent]), stored_seconds=stored_seconds,
    )


def click_operations(fake: FakeDiscord, question: Question, count: int) -> list[ClickOperation]:
    """`count` new members, each clicking one choice (spread over the choices) when called."""
    choices = question.choices
    members = [fake.member(f"member-{n}") for n in range(count)]
    return [partial(fake.click, member, question.message, choices[n % len(choices)])
            for n, member in enumerate(members)]


async def seen_by(fake: FakeDiscord, condition: Callable[[], bool], deadline: float) -> bool:
    """Whether `condition()` held by the loop time `deadline` (checked at each request)."""
    remaining = max(0.0, deadline - asyncio.get_running_loop().time())
    try:
        await fake.wait_until(condition, timeout=remaining)
    except AssertionError:
        return False
    return True


def final_count_shown(question: Question, count: int) -> bool:
    """Whether the question message shows `count` answered."""
    return shows_count(str(question.message.get("content") or ""), count)
