"""The health heartbeat: written only while connected with a database that answers, and read
by `lessonbot health`, which a container runs as its health check."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy.ext.asyncio import create_async_engine

from bot.cli import cli
from bot.process.runtime import database_answers
from bot.process.upkeep import MISSED_BEATS, beat_forever, beat_once, health_report
from bot.settings import Settings
from tests.health import health_check
from tests.waiting import wait_until

EVERY = 10.0


async def yes() -> bool:
    return True


async def no() -> bool:
    return False


async def test_a_beat_touches_the_file_only_when_every_probe_says_yes(tmp_path: Path) -> None:
    health_file = tmp_path / "alive"
    assert not await beat_once(health_file, (yes, no))
    assert not health_file.exists()
    assert await beat_once(health_file, (yes, yes))
    assert health_report(health_file, EVERY)[0]


def test_the_report_fails_after_three_missed_beats_and_says_why(tmp_path: Path) -> None:
    health_file = tmp_path / "alive"
    healthy, line = health_report(health_file, EVERY)
    assert not healthy and "missing" in line
    health_file.write_text("stamp\n")
    beaten = health_file.stat().st_mtime
    assert health_report(health_file, EVERY, now=beaten + MISSED_BEATS * EVERY - 1)[0]
    healthy, line = health_report(health_file, EVERY, now=beaten + MISSED_BEATS * EVERY + 1)
    assert not healthy and "no heartbeat for 31 s" in line


async def test_the_heartbeat_stops_refreshing_when_the_platform_drops_and_is_gone_after(
    tmp_path: Path,
) -> None:
    health_file = tmp_path / "alive"
    connected = True
    asked = 0

    async def platform() -> bool:
        nonlocal asked
        asked += 1
        return connected

    def asked_again(times: int) -> Callable[[], Awaitable[bool]]:
        target = asked + times

        async def done() -> bool:
            return asked >= target

        return done

    beating = asyncio.create_task(beat_forever(health_file, 0.01, platform))
    await wait_until(lambda: asyncio.to_thread(health_file.exists), what="the first beat")
    connected = False
    await wait_until(asked_again(1), what="a beat after the drop")
    os.utime(health_file, (0, 0))  # as if the last beat were long ago
    await wait_until(asked_again(3), what="three more beats")
    assert health_file.stat().st_mtime == 0
    assert not health_report(health_file, 0.01)[0]
    beating.cancel()
    await asyncio.gather(beating, return_exceptions=True)
    assert not health_file.exists()


async def test_an_unreachable_database_counts_as_not_answering() -> None:
    database = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    try:
        assert not await database_answers(database, timeout=5)
    finally:
        await database.dispose()


async def test_a_working_database_answers(tmp_path: Path) -> None:
    database = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    try:
        assert await database_answers(database, timeout=5)
    finally:
        await database.dispose()


def test_the_command_exits_0_when_fresh_1_when_stale_and_2_without_a_file_setting(
    tmp_path: Path,
) -> None:
    health_file = tmp_path / "alive"
    health_file.write_text("stamp\n")
    settings = Settings(_env_file=None, health_file=health_file, health_interval=EVERY)
    fresh = CliRunner().invoke(cli, ["health"], obj=settings)
    assert fresh.exit_code == 0 and fresh.output.startswith("healthy")
    stale = time.time() - MISSED_BEATS * EVERY - 5
    os.utime(health_file, (stale, stale))
    assert CliRunner().invoke(cli, ["health"], obj=settings).exit_code == 1
    unset = CliRunner().invoke(cli, ["health"], obj=Settings(_env_file=None, health_file=None))
    assert unset.exit_code == 2 and "HEALTH_FILE is not set" in unset.output


async def test_the_command_reads_its_settings_from_the_environment(tmp_path: Path) -> None:
    health_file = tmp_path / "alive"
    status, line = await health_check(health_file, EVERY)
    assert status == 1 and "missing" in line
    health_file.write_text("stamp\n")
    status, line = await health_check(health_file, EVERY)
    assert status == 0 and line.startswith("healthy")
