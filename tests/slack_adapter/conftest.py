"""Fixtures: the fake Slack Web API, the real bolt app built on it, served on loopback."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from pydantic import SecretStr

from bot.engine import LessonCatalog, LessonEngine
from bot.settings import Settings
from bot.slack_adapter import SlackBot, build_slack_bot
from bot.slack_adapter.run import start_http
from bot.verifier import Checker
from fakes.fake_slack import FakeSlack
from fakes.slack_driver import BOT_TOKEN, HOST, LISTED_HOST, SIGNING_SECRET, SlackDriver
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock

COUNTER_INTERVAL = 0.2


def slack_settings(**overrides: Any) -> Settings:
    """Settings for tests, ignoring any .env file and environment."""
    values: dict[str, Any] = {
        "slack_bot_token": SecretStr(BOT_TOKEN),
        "slack_signing_secret": SecretStr(SIGNING_SECRET),
        "slack_host_users": LISTED_HOST,
    }
    return Settings(_env_file=None, **(values | overrides))  # type: ignore[call-arg]


def bot_for(engine: LessonEngine, checker: Checker, fake: FakeSlack) -> SlackBot:
    """A real app on this engine, its Web API client pointed at the fake."""
    settings = slack_settings(slack_api_url=fake.base_url)
    return build_slack_bot(settings, engine, counter_interval=COUNTER_INTERVAL)


@contextlib.asynccontextmanager
async def serving(bot: SlackBot, fake: FakeSlack) -> AsyncIterator[SlackDriver]:
    """The app in HTTP mode on 127.0.0.1, and a driver sending it signed requests.

    On the way out, work the app still does after its acks is allowed to finish.
    """
    async with bot.connected():
        runner = await start_http(bot, "127.0.0.1", 0)
        port = runner.addresses[0][1]
        try:
            async with aiohttp.ClientSession() as session:
                yield SlackDriver(f"http://127.0.0.1:{port}/slack/events", fake, session)
        finally:
            await runner.cleanup()


def missing_edits(fake: FakeSlack) -> list[str]:
    """Each edit Slack answered `message_not_found`: the channel it named lacks the message."""
    return [
        f"{call.method}(channel={call.args.get('channel')}, ts={call.args.get('ts')})"
        for call in fake.missing_edits
    ]


def assert_no_missing_edits(fake: FakeSlack) -> None:
    """Every edit named a message its channel holds (unless the test expected otherwise)."""
    wrong = [] if fake.missing_edits_expected else missing_edits(fake)
    assert not wrong, f"the bot edited messages in channels that do not hold them: {wrong}"


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlack]:
    """The fake Web API, with one workspace admin; no edit may miss its message."""
    fake = await FakeSlack(admins={HOST}).start()
    yield fake
    await fake.close()
    assert_no_missing_edits(fake)


@contextlib.asynccontextmanager
async def finishing_background_work() -> AsyncIterator[None]:
    """On the way out, let tasks started inside the block finish (5 s at most)."""
    before = asyncio.all_tasks()
    yield
    pending = asyncio.all_tasks() - before - {asyncio.current_task()}
    if pending:
        await asyncio.wait(pending, timeout=5)


@pytest.fixture
async def background_work() -> AsyncIterator[None]:
    """At teardown, let listener work still running finish before the database goes away."""
    async with finishing_background_work():
        yield


@pytest.fixture
def slack_bot(
    engine: LessonEngine, checker: Checker, fake_slack: FakeSlack, background_work: None
) -> SlackBot:
    """The real app, its client pointed at the fake."""
    return bot_for(engine, checker, fake_slack)


@pytest.fixture
async def slack(slack_bot: SlackBot, fake_slack: FakeSlack) -> AsyncIterator[SlackDriver]:
    """The app in HTTP mode on 127.0.0.1, and a driver sending it signed requests."""
    async with serving(slack_bot, fake_slack) as driver:
        yield driver


@pytest.fixture
async def second_slack(
    database_url: str,
    checker: Checker,
    clock: FakeClock,
    fake_slack: FakeSlack,
    background_work: None,
) -> AsyncIterator[SlackDriver]:
    """Another app instance (its own engine and connections) on the same database and fake."""
    database = open_database(database_url)
    engine = LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)
    try:
        async with serving(bot_for(engine, checker, fake_slack), fake_slack) as driver:
            yield driver
    finally:
        await database.dispose()
