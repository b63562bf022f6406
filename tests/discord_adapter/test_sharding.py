"""Several bot processes: each identifies with its own shard; only shard 0 registers commands."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_adapter import build_bot
from bot.discord_adapter.client import BadSharding, Shard, shard_of
from bot.engine import LessonEngine
from bot.process.runtime import Runtime
from bot.settings import Settings
from bot.verifier import Checker
from fakes.fake_discord import TOKEN, FakeDiscord
from storage import SqlRunStore
from tests.discord_adapter.helpers import FAST


async def test_a_second_shard_identifies_as_such_and_leaves_commands_to_shard_zero(
    fake: FakeDiscord, settings: Settings, engine: LessonEngine, checker: Checker
) -> None:
    sharded = settings.model_copy(update={"discord_shard_id": 1, "discord_shard_count": 2})
    store = engine.store
    assert isinstance(store, SqlRunStore)
    bot = build_bot(sharded, Runtime(engine, store, checker, store.database), FAST)
    running = asyncio.create_task(bot.start(TOKEN))
    try:
        await fake.wait_identified()
        assert fake.identifies[0]["shard"] == [1, 2]
        assert not fake.requests_to("PUT", "/applications/"), "shard 1 registered commands"
    finally:
        await bot.close()
        await running


def test_shard_settings_are_read_only_when_complete() -> None:
    plain = Settings(_env_file=None)  # type: ignore[call-arg]
    assert shard_of(plain) == Shard() and Shard().registers_commands
    assert shard_of(Settings(discord_shard_id=0, discord_shard_count=3)) == Shard(0, 3)
    for shard_id, count in ((1, None), (None, 2), (2, 2), (-1, 2)):
        with pytest.raises(BadSharding, match="DISCORD_SHARD_COUNT"):
            shard_of(Settings.model_construct(discord_shard_id=shard_id, discord_shard_count=count))
