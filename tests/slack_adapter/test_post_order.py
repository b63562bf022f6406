"""The channel reads like the lesson: each post once, in the lesson's order, whatever the timing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.process.upkeep import fire_once
from bot.slack_adapter import SlackBot
from bot.verifier import Checker
from fakes.fake_slack import Call, FakeSlack, block_texts
from fakes.slack_driver import CHANNEL, HOST, TOTAL, SlackDriver
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.slack_adapter.conftest import bot_for
from tests.slow_drawing import slow_training_chart
from tests.waiting import wait_until

CHECKER = f"Step 4/{TOTAL} · You're the checker"
CHECKER_RESULTS = "Results: You're the checker"
TOY = f"Step 5/{TOTAL} · Train a tiny model on your votes"
AFTER_TOY = f"Step 6/{TOTAL} · Where does that leave writing?"
WAITING = "is posting in another process; waiting for its turn"


def posting(text: str) -> Callable[[Call], bool]:
    """Whether a Web API call posts a message to the lesson's channel that shows `text`."""

    def matches(call: Call) -> bool:
        blocks = call.args.get("blocks") or []
        is_post = call.method == "chat.postMessage" and call.args.get("channel") == CHANNEL
        return is_post and isinstance(blocks, list) and text in block_texts(blocks)

    return matches


def headings(slack: SlackDriver) -> list[str]:
    """The first line of every message in the lesson's channel, oldest first."""
    return [block_texts(call.args["blocks"]).splitlines()[0] for call in slack.posts_in(CHANNEL)]


@contextlib.asynccontextmanager
async def another_process(
    database_url: str, checker: Checker, clock: FakeClock, fake: FakeSlack
) -> AsyncIterator[SlackBot]:
    """Another app instance, with its own engine and connections, on the same database."""
    database = open_database(database_url)
    engine = LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)
    bot = bot_for(engine, checker, fake)
    try:
        async with bot.connected():
            yield bot
    finally:
        await database.dispose()


async def test_next_pressed_while_a_slow_step_is_drawn_waits_for_it(
    slack: SlackDriver, slack_bot: SlackBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await slack.start()
    await slack.go_to_step(4)
    slow = slow_training_chart(monkeypatch, slack_bot.presenter)
    assert await slack.command("next") == 200
    await slack.wait_post(CHECKER_RESULTS)
    await slow.wait_started()
    assert await slack.command("next") == 200
    assert not slack.posts_in(CHANNEL, AFTER_TOY)
    slow.released.set()

    await slack.wait_post(AFTER_TOY)
    assert headings(slack)[-4:] == [CHECKER, CHECKER_RESULTS, TOY, AFTER_TOY]
    assert not slack.ephemerals(HOST, "still posting")


async def test_two_quick_nexts_and_a_timer_post_in_order_and_skip_nothing_unasked(
    slack: SlackDriver, slack_bot: SlackBot, clock: FakeClock
) -> None:
    await slack.start("rlvr 30s")
    await slack.go_to_step(4)
    slow = slack.fake.delay(posting(CHECKER_RESULTS))
    clock.advance(31)  # the timer is due: it reveals the checker round, unless a Next is first
    timer = asyncio.create_task(fire_once(slack_bot.requests.service.fire_timers))
    nexts = [asyncio.create_task(slack.command("next")) for _ in range(2)]
    await slow.wait_arrived()
    slow.released.set()
    assert await asyncio.gather(*nexts) == [200, 200]
    await timer

    await slack.wait_post(AFTER_TOY)
    assert headings(slack) == [
        f"Step 1/{TOTAL} · What this lesson is about",
        f"Step 2/{TOTAL} · Same brain, a year later",
        "Results: Same brain, a year later",
        f"Step 3/{TOTAL} · Three stages of training",
        CHECKER,
        CHECKER_RESULTS,
        TOY,
        AFTER_TOY,
    ]
    assert not slack.ephemerals(HOST, "moved the lesson on")


async def test_processes_starting_during_a_post_leave_one_copy(
    slack: SlackDriver,
    database_url: str,
    checker: Checker,
    clock: FakeClock,
    fake_slack: FakeSlack,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger="bot.service.posting")
    await slack.start()
    await slack.go_to_step(2)
    held = fake_slack.delay(posting("Results: Same brain"))
    assert await slack.command("reveal") == 200
    await held.wait_arrived()

    async with (
        another_process(database_url, checker, clock, fake_slack) as second,
        another_process(database_url, checker, clock, fake_slack) as third,
    ):
        starting = [
            asyncio.create_task(bot.presenter.catch_up("slack")) for bot in (second, third)
        ]

        async def both_waiting() -> bool:
            return sum(WAITING in record.getMessage() for record in caplog.records) >= 2

        await wait_until(both_waiting, 20, "both new processes waiting for the run's turn")
        held.released.set()
        await asyncio.gather(*starting)
    assert len(slack.posts_in(CHANNEL, "Results: Same brain")) == 1
    assert len(slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")) == 1


async def test_a_step_lost_to_an_outage_is_posted_once_the_platform_answers(
    slack: SlackDriver, slack_bot: SlackBot
) -> None:
    slack_bot.presenter.retry_first = 0.05
    await slack.start()
    await slack.go_to_step(2)
    calls_per_post = 1 + 2  # the client's own retries of a server error
    slack.fake.fail_next(
        "chat.postMessage", times=2 * calls_per_post, status=503, error="service_unavailable"
    )
    assert await slack.command("next") == 200
    await slack.wait_ephemeral(HOST, "The bot keeps trying")

    await slack.wait_post(f"Step 3/{TOTAL}", timeout=30)
    assert headings(slack) == [
        f"Step 1/{TOTAL} · What this lesson is about",
        f"Step 2/{TOTAL} · Same brain, a year later",
        "Results: Same brain, a year later",
        f"Step 3/{TOTAL} · Three stages of training",
    ]
