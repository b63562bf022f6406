"""The database going away: clicks are acknowledged in time and refused privately, nothing
half-done happens, and the bot works again as soon as the database is back."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.engine import LessonCatalog, LessonEngine
from bot.model import StoreUnavailable
from bot.verifier import Checker
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.platforms.driver import LESSON, Platform
from tests.platforms.outage import Switch, switchable_database

TRY_AGAIN = str(StoreUnavailable())
STEP = "what-changed"
CHOICE = "checkable-reward"


async def test_clicks_while_the_database_is_down_are_refused_and_the_bot_recovers(
    platform: Platform,
    database_url: str,
    tmp_path: Path,
    checker: Checker,
    clock: FakeClock,
    store: SqlRunStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="storage")
    async with switchable_database(database_url, tmp_path) as switch:
        database = open_database(switch.url)
        try:
            engine = LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)
            async with platform.running(engine):
                await outage_and_recovery(platform, switch, database, store)
        finally:
            await database.dispose()
    messages = [r.getMessage() for r in caplog.records if r.name == "storage"]
    assert messages[0].startswith("database unavailable") and "database reachable again" in messages


async def outage_and_recovery(
    platform: Platform, switch: Switch, database: AsyncEngine, store: SqlRunStore
) -> None:
    """Reach a question, take the database down, click and command, bring it back, click."""
    question = await platform.reach(STEP)
    choice = question.button(arg=CHOICE)
    ann, ben = platform.member("ann"), platform.member("ben")
    await platform.settle()  # the step's post is remembered before the database goes
    await switch.down(database)

    clicked = await platform.click(ben, question, choice)
    refused = await platform.reply(clicked)
    assert refused.private and refused.text == TRY_AGAIN, refused.text
    delay = platform.ack(clicked).seconds
    assert delay is not None and delay < platform.ack_window
    for verb in ("reveal", "next"):
        not_done = await platform.ask(verb)
        assert not_done.private and not_done.text == TRY_AGAIN, (verb, not_done.text)

    await switch.up()
    clicked = await platform.click(ann, question, choice)
    recorded = await platform.reply(clicked)
    assert recorded.private and "You chose" in recorded.text
    delay = platform.ack(clicked).seconds
    assert delay is not None and delay < platform.ack_window
    assert not [reply for reply in platform.told(ben) if "You chose" in reply.text]
    votes = await store.vote_counts(question.run, STEP)
    assert [(v.value, v.count) for v in votes] == [(CHOICE, 1)]
    assert await store.member_votes(question.run, STEP, ann.id) == {"choice": CHOICE}
    assert await store.member_votes(question.run, STEP, ben.id) == {}
    moved = await platform.next_step()
    assert moved.step == LESSON.steps[LESSON.steps.index(LESSON.step_by_id(STEP)) + 1].id
