"""A bot process whose SQLite file is deleted or replaced says so and stops, rather than run on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.database_file import (
    STOPS_WITHIN,
    assert_stopped_cleanly,
    replace_with_a_copy,
    sqlite_url,
)
from tests.platforms.driver import Platform


@pytest.mark.parametrize(
    ("lose", "what", "left"),
    [
        pytest.param(Path.unlink, "vanished", False, id="deleted"),
        pytest.param(replace_with_a_copy, "was replaced by another file", True, id="replaced"),
    ],
)
async def test_a_lost_database_file_stops_the_bot_with_a_clear_message(
    platform: Platform, tmp_path: Path, lose: Callable[[Path], None], what: str, left: bool
) -> None:
    path = tmp_path / "lessonbot.db"
    async with platform.process(sqlite_url(path), tmp_path, log_level="DEBUG") as bot:
        first = await platform.start()
        assert first.step == "intro"
        lose(path)
        async with asyncio.timeout(STOPS_WITHIN):
            status = await bot.wait()
    assert_stopped_cleanly(status, bot.log_text(), path, what)
    assert path.exists() is left
