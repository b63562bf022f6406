"""A Discord bot process whose SQLite file is deleted says so and stops, rather than run on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakes.discord_processes import start_bot_process
from fakes.fake_discord import FakeDiscord
from tests.database_file import STOPS_WITHIN, assert_stopped_cleanly, sqlite_url
from tests.discord_adapter.helpers import LessonDriver


async def test_a_deleted_database_file_stops_the_bot_with_a_clear_message(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    path = tmp_path / "lessonbot.db"
    bot = await start_bot_process(fake, sqlite_url(path), tmp_path, "bot")
    try:
        await LessonDriver(fake, fake.host("hazel")).start()
        path.unlink()
        async with asyncio.timeout(STOPS_WITHIN):
            status = await bot.process.wait()
    finally:
        await bot.kill()
    assert_stopped_cleanly(status, bot.log_text(), path, "vanished")
    assert not path.exists()
