"""A container's health check beside the real Discord bot process follows its gateway session:
unhealthy through an outage, healthy again once the session resumes.

That the check passes while a bot serves and fails once it crashed or stopped is tested on
both platforms in `tests/platforms/test_health.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.process.upkeep import health_report
from fakes.discord_processes import start_bot_process
from fakes.fake_discord import FakeDiscord
from tests.health import INTERVAL, assert_healthy_once_beating, health_check, heartbeat_settings
from tests.waiting import wait_until

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""

OUTAGE_TIMEOUT = 60.0
"""discord.py waits longer between reconnect attempts the longer an outage lasts."""


async def test_the_health_check_follows_the_gateway_session_through_an_outage(
    fake: FakeDiscord, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health_file = heartbeat_settings(tmp_path, monkeypatch)
    bot = await start_bot_process(fake, database_url, tmp_path, "bot")

    async def healthy() -> bool:
        return health_report(health_file, INTERVAL)[0]

    async def stale() -> bool:
        return not await healthy()

    try:
        await assert_healthy_once_beating(health_file)
        await fake.drop_gateway()
        await wait_until(stale, OUTAGE_TIMEOUT, "three missed heartbeats in the outage")
        status, line = await health_check(health_file)
        assert status == 1 and "no heartbeat" in line, line

        fake.restore_gateway()
        await fake.wait_until(lambda: fake.resumes, OUTAGE_TIMEOUT, "RESUME")
        await wait_until(healthy, OUTAGE_TIMEOUT, "a heartbeat after resuming")
        status, line = await health_check(health_file)
        assert status == 0 and line.startswith("healthy"), line
    finally:
        await bot.kill()
