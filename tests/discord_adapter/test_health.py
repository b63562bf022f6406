"""A container's health check beside the real Discord bot process: healthy once it is connected,
unhealthy once it stops."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from fakes.discord_processes import start_bot_process
from fakes.fake_discord import FakeDiscord
from tests.health import assert_healthy_once_beating, health_check, heartbeat_settings


async def test_the_health_check_passes_while_connected_and_fails_once_the_bot_stops(
    fake: FakeDiscord, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health_file = heartbeat_settings(tmp_path, monkeypatch)
    bot = await start_bot_process(fake, database_url, tmp_path, "bot")
    try:
        await assert_healthy_once_beating(health_file)
        await bot.kill(signal.SIGTERM)
    finally:
        await bot.kill()
    status, line = await health_check(health_file)
    assert status == 1 and "missing" in line, bot.log_text()
