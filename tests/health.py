"""`python -m bot health` run as a container's health check runs it, beside a bot's heartbeat."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from fakes.environment import process_environment
from tests.waiting import wait_until

INTERVAL = 1.0
"""Seconds between heartbeats of the bot processes these tests start."""


def heartbeat_settings(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make bot processes started by this test beat into a file in `folder`; that file."""
    health_file = folder / "alive"
    monkeypatch.setenv("HEALTH_FILE", str(health_file))
    monkeypatch.setenv("HEALTH_INTERVAL", str(INTERVAL))
    return health_file


async def health_check(health_file: Path, interval: float = INTERVAL) -> tuple[int, str]:
    """Run the health check for `health_file`; its exit status and what it printed."""
    settings = {"HEALTH_FILE": str(health_file), "HEALTH_INTERVAL": str(interval)}
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "health"),
        env=process_environment(("HEALTH_",), settings),
        cwd=health_file.parent,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode()


async def assert_healthy_once_beating(health_file: Path) -> None:
    """Wait for the bot's first heartbeat, then see the health check pass."""
    await wait_until(lambda: asyncio.to_thread(health_file.exists), 30, "the first heartbeat")
    status, line = await health_check(health_file)
    assert status == 0 and line.startswith("healthy"), line
