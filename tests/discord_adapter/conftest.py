"""Fixtures: a fake Discord on localhost and the real bot client connected to it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from pydantic import SecretStr
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.discord_adapter import BotOptions, LessonBot, build_bot
from bot.engine import LessonCatalog, LessonEngine
from bot.process.runtime import Runtime
from bot.settings import Settings
from bot.verifier import Checker
from fakes.fake_discord import GUILD_ID, HOST_ROLE_ID, TOKEN, FakeDiscord
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.discord_adapter.helpers import LessonDriver, assert_no_mentions

FAST = BotOptions(counter_interval=0.2, timer_interval=0.05)


Launch = Callable[..., Awaitable[LessonBot]]
MakeEngine = Callable[[str], LessonEngine]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord that discord.py talks to for the test's duration."""
    server = FakeDiscord()
    await server.start()
    with server.patched():
        yield server
    await server.close()
    assert_no_mentions(server)


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Settings as the bot would read them, without any .env file."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        discord_token=SecretStr(TOKEN),
        discord_guild_id=GUILD_ID,
        lesson_host_role_id=HOST_ROLE_ID,
    )


@pytest.fixture
async def engines(checker: Checker, clock: FakeClock) -> AsyncIterator[MakeEngine]:
    """Engines on other database URLs, disposed only after every bot is closed."""
    made: list[AsyncEngine] = []

    def make(url: str) -> LessonEngine:
        database = open_database(url)
        made.append(database)
        return LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)

    yield make
    for database in made:
        await database.dispose()


@pytest.fixture
async def launch(
    fake: FakeDiscord,
    settings: Settings,
    engine: LessonEngine,
    checker: Checker,
    engines: MakeEngine,
) -> AsyncIterator[Launch]:
    """Start a bot (optionally on another engine); every bot is closed after the test."""
    running: list[tuple[LessonBot, asyncio.Task[None]]] = []

    async def start(on: LessonEngine = engine, options: BotOptions = FAST) -> LessonBot:
        store = on.store
        assert isinstance(store, SqlRunStore)
        bot = build_bot(settings, Runtime(on, store, checker, store.database), options)
        task = asyncio.create_task(bot.start(TOKEN))
        running.append((bot, task))
        await fake.wait_identified(len(running))
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        await task


@pytest.fixture
def fresh_engine(database_url: str, engines: MakeEngine) -> LessonEngine:
    """A second engine on the same database, as in another process or after a restart."""
    return engines(database_url)


@pytest.fixture
async def lesson(fake: FakeDiscord, launch: Launch) -> LessonDriver:
    """A running bot and a driver for a host, in the main channel."""
    await launch()
    return LessonDriver(fake, fake.host("hazel"))
