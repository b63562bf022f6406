"""Fixtures: the fake Slack Web API, the real bolt app built on it, served on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from pydantic import SecretStr

from bot.engine import LessonEngine
from bot.runtime import Runtime
from bot.settings import Settings
from bot.slack_adapter import SlackBot, build_slack_bot
from bot.slack_adapter.run import start_http
from bot.verifier import Checker
from storage import SqlRunStore
from tests.fakes.fake_slack import FakeSlack
from tests.slack_adapter.driver import BOT_TOKEN, HOST, LISTED_HOST, SIGNING_SECRET, SlackDriver

COUNTER_INTERVAL = 0.2


def slack_settings(**overrides: object) -> Settings:
    """Settings for tests, ignoring any .env file and environment."""
    values: dict[str, object] = {
        "slack_bot_token": SecretStr(BOT_TOKEN),
        "slack_signing_secret": SecretStr(SIGNING_SECRET),
        "slack_host_users": LISTED_HOST,
    }
    return Settings(_env_file=None, **(values | overrides))  # type: ignore[call-arg]


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlack]:
    """The fake Web API, with one workspace admin."""
    fake = await FakeSlack(admins={HOST}).start()
    yield fake
    await fake.close()


@pytest.fixture
async def background_work() -> AsyncIterator[None]:
    """At teardown, let listener work still running finish before the database goes away."""
    before = asyncio.all_tasks()
    yield
    pending = asyncio.all_tasks() - before - {asyncio.current_task()}
    if pending:
        await asyncio.wait(pending, timeout=5)


@pytest.fixture
def slack_bot(
    engine: LessonEngine,
    store: SqlRunStore,
    checker: Checker,
    fake_slack: FakeSlack,
    background_work: None,
) -> SlackBot:
    """The real app, its client pointed at the fake."""
    runtime = Runtime(engine, store, checker, store.engine)
    return build_slack_bot(slack_settings(), runtime, fake_slack.base_url, COUNTER_INTERVAL)


@pytest.fixture
async def slack(slack_bot: SlackBot, fake_slack: FakeSlack) -> AsyncIterator[SlackDriver]:
    """The app in HTTP mode on 127.0.0.1, and a driver sending it signed requests."""
    runner = await start_http(slack_bot.app, "127.0.0.1", 0)
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as session:
        yield SlackDriver(f"http://127.0.0.1:{port}/slack/events", fake_slack, session)
    await runner.cleanup()
    await slack_bot.context.counter.flush()
