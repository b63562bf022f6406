"""Fixtures: a fake Discord on localhost and the real bot client connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.discord_adapter import BotOptions, LessonBot
from bot.engine import LessonCatalog, LessonEngine
from bot.settings import Settings
from bot.verifier import Checker
from fakes.fake_discord import FakeDiscord
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.discord_adapter.helpers import (
    FAST,
    DiscordBots,
    LessonDriver,
    discord_settings,
    serving_fake_discord,
)

Launch = Callable[..., Awaitable[LessonBot]]
MakeEngine = Callable[[str], LessonEngine]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord that discord.py talks to for the test's duration."""
    async with serving_fake_discord() as server:
        yield server


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Settings as the bot would read them, without any .env file."""
    return discord_settings(database_url)


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
    bots = DiscordBots(fake, settings, checker)

    async def start(on: LessonEngine = engine, options: BotOptions = FAST) -> LessonBot:
        return await bots.start(on, options)

    yield start
    await bots.close()


@pytest.fixture
def fresh_engine(database_url: str, engines: MakeEngine) -> LessonEngine:
    """A second engine on the same database, as in another process or after a restart."""
    return engines(database_url)


@pytest.fixture
async def lesson(fake: FakeDiscord, launch: Launch) -> LessonDriver:
    """A running bot and a driver for a host, in the main channel."""
    await launch()
    return LessonDriver(fake, fake.host("hazel"))
