"""A container's health check beside a real bot process: healthy while the bot beats, and
failing once it crashed (no heartbeat any more) or stopped (its heartbeat file removed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.process.upkeep import health_report
from tests.health import INTERVAL, assert_healthy_once_beating, health_check, heartbeat_settings
from tests.platforms.driver import Platform, ProcessHandle
from tests.waiting import wait_until

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""

FAILS_WITHIN = 30.0
"""Seconds for three heartbeats to be missed."""


async def crash(bot: ProcessHandle) -> None:
    """SIGKILL: the bot leaves its heartbeat file behind, to go stale."""
    await bot.crash()


async def stop(bot: ProcessHandle) -> None:
    """SIGTERM: the bot stops cleanly and removes its heartbeat file."""
    assert await bot.terminate() == 0, bot.log_text()


@pytest.mark.parametrize(
    ("end", "says"),
    [
        pytest.param(crash, "no heartbeat", id="crashed"),
        pytest.param(stop, "missing", id="stopped"),
    ],
)
async def test_the_health_check_passes_while_the_bot_serves_and_fails_once_it_ended(
    platform: Platform,
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    end: Callable[[ProcessHandle], Awaitable[None]],
    says: str,
) -> None:
    health_file = heartbeat_settings(tmp_path, monkeypatch)
    async with platform.process(database_url, tmp_path) as bot:
        await assert_healthy_once_beating(health_file)
        await end(bot)

    async def unhealthy() -> bool:
        return not health_report(health_file, INTERVAL)[0]

    await wait_until(unhealthy, FAILS_WITHIN, "the bot's heartbeat to fail")
    status, line = await health_check(health_file)
    assert status == 1 and says in line, (line, bot.log_text())
