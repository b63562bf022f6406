"""The database unreachable: clicks are acked in time and refused clearly; then it recovers."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.engine import LessonCatalog, LessonEngine, parse_address
from bot.slack_adapter import SlackBot
from bot.verifier import Checker
from fakes.fake_slack import FakeSlack
from fakes.slack_driver import ACK_DEADLINE, ALICE, BOB, HOST, SlackDriver
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.slack_adapter.conftest import bot_for, serving
from tests.slack_adapter.outage import Switchable, switchable_database

RIGHT = "A new training stage"
REFUSAL = "Could not record that right now"


async def timed_click(slack: SlackDriver, action_id: str, user: str) -> float:
    """Click and return how long the ack took (the driver also fails it past 3 s)."""
    started = time.monotonic()
    assert await slack.click(action_id, user) == 200
    return time.monotonic() - started


async def test_a_click_while_the_database_is_down_is_refused_and_then_recorded(
    database_url: str,
    tmp_path: Path,
    checker: Checker,
    clock: FakeClock,
    fake_slack: FakeSlack,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="storage")
    async with switchable_database(database_url, tmp_path) as switch:
        database = open_database(switch.url)
        store = SqlRunStore(database)
        engine = LessonEngine(store, checker, LessonCatalog(), clock)
        try:
            bot = bot_for(engine, checker, fake_slack)
            async with serving(bot, fake_slack) as slack:
                await outage_and_recovery(slack, bot, switch, database)
            run_id = parse_address(slack.button(await slack.wait_post("Step 2/"), RIGHT)).run_id
            assert await store.member_votes(run_id, "what-changed", ALICE) == {
                "choice": "checkable-reward"
            }
            assert await store.member_votes(run_id, "what-changed", BOB) == {}
        finally:
            await database.dispose()
    messages = [r.getMessage() for r in caplog.records if r.name == "storage"]
    assert messages[0].startswith("database unavailable") and "database reachable again" in messages


async def outage_and_recovery(
    slack: SlackDriver, bot: SlackBot, switch: Switchable, database: AsyncEngine
) -> None:
    """Start a run, take the database down, click, bring it back, click again."""
    await slack.start()
    question = await slack.go_to_step(2)
    choice = slack.button(question, RIGHT)
    await bot.drain()  # the step's message is remembered before the database goes
    await switch.down(database)
    assert await timed_click(slack, choice, BOB) < ACK_DEADLINE
    await slack.wait_ephemeral(BOB, REFUSAL)
    assert await slack.command("reveal", HOST) == 200
    await slack.wait_ephemeral(HOST, REFUSAL)
    await switch.up()
    assert await timed_click(slack, choice, ALICE) < ACK_DEADLINE
    await slack.wait_ephemeral(ALICE, "You chose")
    assert slack.ephemerals(BOB, "You chose") == []
