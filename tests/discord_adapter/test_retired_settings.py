"""A setting that no longer does anything is named in a warning when the bot starts."""

from __future__ import annotations

from pathlib import Path

from bot.settings import Settings
from fakes.discord_processes import start_bot_process
from fakes.fake_discord import FakeDiscord

RETIRED = "LESSON_HOST_ROLE is set but no longer grants host rights"


async def test_the_retired_host_role_name_is_warned_about_at_start(
    fake: FakeDiscord, database_url: str, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("LESSON_HOST_ROLE=Lesson Host\n", encoding="utf-8")
    bot = await start_bot_process(fake, database_url, tmp_path, "bot", log_level="INFO")
    try:
        log = bot.log_text()
    finally:
        await bot.kill()
    assert RETIRED in log and "LESSON_HOST_ROLE_ID" in log


def test_no_warning_without_the_retired_setting() -> None:
    assert Settings(_env_file=None).retired() == []  # type: ignore[call-arg]
