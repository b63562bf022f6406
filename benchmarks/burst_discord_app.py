"""The real discord.py client connected to the fake Discord (REST and gateway on loopback)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pydantic import SecretStr

from benchmarks.burst_discord_host import TOKEN
from bot.discord_adapter import BotOptions, LessonBot, build_bot
from bot.runtime import Runtime
from bot.settings import Settings
from tests.fakes.fake_discord import GUILD_ID, HOST_ROLE_NAME, FakeDiscord

IDENTIFY_TIMEOUT = 15.0


def settings_for(database_url: str) -> Settings:
    """The bot's settings: the test token and guild, no .env file, default intervals."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        discord_token=SecretStr(TOKEN),
        discord_guild_id=GUILD_ID,
        lesson_host_role=HOST_ROLE_NAME,
    )


@asynccontextmanager
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """The fake Discord on a random loopback port, with discord.py pointed at it."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patched():
            yield fake
    finally:
        await fake.close()


@asynccontextmanager
async def running_bot(runtime: Runtime, fake: FakeDiscord, url: str) -> AsyncIterator[LessonBot]:
    """The bot with its default options, connected to the fake; closed (counters flushed) after."""
    bot = build_bot(settings_for(url), runtime, BotOptions())
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await fake.wait_identified(len(fake.identifies) + 1, timeout=IDENTIFY_TIMEOUT)
        yield bot
    finally:
        await bot.close()
        await task
