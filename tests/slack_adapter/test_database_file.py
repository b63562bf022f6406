"""A Slack bot process whose SQLite file is replaced or deleted says so and stops cleanly."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from fakes.fake_slack import FakeSlack
from fakes.slack_processes import BotProcess, bot_environment, free_port
from tests.database_file import (
    STOPS_WITHIN,
    assert_stopped_cleanly,
    replace_with_a_copy,
    sqlite_url,
)


@pytest.mark.parametrize(
    ("lose", "what"),
    [(Path.unlink, "vanished"), (replace_with_a_copy, "was replaced by another file")],
)
async def test_a_lost_database_file_stops_the_bot_with_a_clear_message(
    fake_slack: FakeSlack, tmp_path: Path, lose: Callable[[Path], None], what: str
) -> None:
    path = tmp_path / "lessonbot.db"
    env = bot_environment(fake_slack, sqlite_url(path))
    bot = BotProcess(free_port(), env, tmp_path, tmp_path / "bot.log")
    try:
        await bot.start()
        async with aiohttp.ClientSession() as session:
            await bot.wait_ready(session)
        lose(path)
        assert bot.process is not None
        async with asyncio.timeout(STOPS_WITHIN):
            status = await bot.process.wait()
    finally:
        await bot.stop()
    assert_stopped_cleanly(status, bot.log_text(), path, what)
