"""A burst of signed button clicks at the real bolt app in HTTP mode, against the fake Slack.

The clicks go out evenly spread over about a second through a bounded pool of client
connections; each is timed from the moment its request was sent to the end of its answer
(the ack). Then the votes stored are counted, waiting with a deadline for the work the app
does after its acks, and the question message's chat.update edits are read off the fake.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from functools import partial

import aiohttp

from benchmarks.burst_record import BurstRecord, BurstSizes
from benchmarks.burst_slack_app import TimedFakeSlack, serving
from benchmarks.burst_timing import paced, settled, without_collector_pauses
from benchmarks.burst_world import (
    all_stored_by,
    first_question,
    shows_count,
    spread,
    store_on,
    stored_votes,
)
from bot.engine import parse_address
from bot.process.event_loop import run_service
from fakes.fake_slack import Call, action_ids, block_texts, is_private_reply
from fakes.slack_burst import burst_session
from fakes.slack_driver import HOST, SlackDriver, message_ts, step_number
from storage import SqlRunStore

USER_PREFIX = "UBURST"
Request = tuple[bytes, dict[str, str]]
HTTP_OK = 200


@dataclass(frozen=True)
class SentClick:
    """One click's request: when it was sent (monotonic) and its ack time, if it got a 200."""

    sent_at: float | None
    seconds: float | None


@dataclass(frozen=True)
class Question:
    """The question message the burst answers."""

    ts: str
    run_id: int
    step_id: str
    choices: list[str]


def run_slack_burst(url: str, sizes: BurstSizes) -> BurstRecord:
    """One burst on the database at `url` (already migrated), in a fresh (fast) event loop."""
    return run_service(_burst_on(url, sizes))


async def _burst_on(url: str, sizes: BurstSizes) -> BurstRecord:
    async with (
        TimedFakeSlack(admins={HOST}) as fake,
        serving(fake, url) as driver,
        store_on(url) as store,
    ):
        question = await open_question(driver)
        with without_collector_pauses():
            return await measure(driver, fake, store, question, sizes)


async def open_question(driver: SlackDriver) -> Question:
    """Start a run as the host and move on to the first prediction question."""
    step_id = first_question()
    message = await driver.start()
    number = step_number(step_id)
    if number > 1:
        message = await driver.go_to_step(number)
    return question_of(driver, message, step_id)


def question_of(driver: SlackDriver, message: Call, step_id: str) -> Question:
    """The message's ts, run and choice buttons."""
    ts = message_ts(message)
    choices = [a for a in action_ids(driver.fake.messages[ts]["blocks"]) if ":choose:" in a]
    return Question(ts, parse_address(choices[0]).run_id, step_id, choices)


async def measure(
    driver: SlackDriver, fake: TimedFakeSlack, store: SqlRunStore, question: Question,
    sizes: BurstSizes,
) -> BurstRecord:
    """Fire the burst, then wait (up to the deadline) for votes, final count and replies."""
    requests = signed_clicks(driver, question, sizes.clicks)
    started = time.monotonic()
    clicks = await fire(driver.url, requests, sizes)
    deadline = asyncio.get_running_loop().time() + sizes.settle_seconds
    everything = await all_stored_by(store, question.run_id, question.step_id, sizes.clicks,
                                     deadline)
    stored_seconds = time.monotonic() - started if everything else None
    stored = await stored_votes(store, question.run_id, question.step_id)
    await settled(partial(final_count_shown, fake, question.ts, stored), deadline)
    replies = ReplyCounter(fake)
    await settled(partial(replies.reached, sizes.clicks), deadline)
    return BurstRecord(
        clicks=sizes.clicks, acks=[click.seconds for click in clicks], stored=stored,
        replied=replies.count(), edit_times=fake.update_times(question.ts, started),
        send_seconds=spread([click.sent_at for click in clicks if click.sent_at is not None]),
        stored_seconds=stored_seconds,
    )


def signed_clicks(driver: SlackDriver, question: Question, count: int) -> list[Request]:
    """The body and headers of `count` members' clicks, each on one choice (spread over them)."""
    choices = question.choices
    return [driver.signed_click(choices[n % len(choices)], f"{USER_PREFIX}{n:05d}")
            for n in range(count)]


async def fire(url: str, requests: list[Request], sizes: BurstSizes) -> list[SentClick]:
    """POST every click, starting them evenly spread over the burst, on a bounded pool."""
    async with burst_session(sizes.connections) as session:
        posts = [partial(post_click, session, url, body, headers) for body, headers in requests]
        return await paced(posts, sizes.seconds)


async def post_click(
    session: aiohttp.ClientSession, url: str, body: bytes, headers: dict[str, str]
) -> SentClick:
    """POST one click; time it from when its headers went out to the end of the answer."""
    context: dict[str, float] = {}
    try:
        async with session.post(url, data=body, headers=headers,
                                trace_request_ctx=context) as response:
            await response.read()
    except aiohttp.ClientError:
        return SentClick(context.get("sent"), None)
    sent = context["sent"]
    return SentClick(sent, time.monotonic() - sent if response.status == HTTP_OK else None)


async def final_count_shown(fake: TimedFakeSlack, ts: str, count: int) -> bool:
    """Whether the question message shows `count` answered."""
    return shows_count(block_texts(fake.messages[ts]["blocks"]), count)


class ReplyCounter:
    """Counts the burst members who got their private "You chose" reply, reading new calls."""

    def __init__(self, fake: TimedFakeSlack) -> None:
        self.fake = fake
        self.read = 0
        self.users: set[str] = set()

    def count(self) -> int:
        """Members replied to so far."""
        calls = self.fake.calls[self.read:]
        self.read += len(calls)
        self.users.update(call.args["user"] for call in calls if is_receipt(call))
        return len(self.users)

    async def reached(self, wanted: int) -> bool:
        """Whether at least `wanted` members were replied to."""
        return self.count() >= wanted


def is_receipt(call: Call) -> bool:
    """A private "You chose" reply to a burst member."""
    return (is_private_reply(call)
            and str(call.args.get("user", "")).startswith(USER_PREFIX)
            and "You chose" in str(call.args.get("text", "")))
