"""A bot process a test started ends when the test's process does, however that ends."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest

from fakes.environment import ROOT
from tests.platforms.conftest import PLATFORMS
from tests.waiting import wait_until

pytestmark = pytest.mark.slow
"""Starts a bot process and waits for it: spread through the run."""

STARTED_WITHIN = 60.0
ENDED_WITHIN = 10.0


def still_running(pid: int) -> bool:
    """Whether the process runs (a zombie nobody reaped yet has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel whether the id is taken
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 0)
            return True
        return False
    return state != "Z"


async def bot_of_a_parent(parent: asyncio.subprocess.Process) -> int:
    """The id of the bot process the parent started, once it is up."""
    assert parent.stdout is not None
    async with asyncio.timeout(STARTED_WITHIN):
        line = await parent.stdout.readline()
    assert line.strip().isdigit(), f"the parent printed {line!r}"
    return int(line)


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_a_bot_process_ends_when_the_process_that_started_it_is_killed(
    platform: str, tmp_path: Path
) -> None:
    parent = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tests.platforms.bot_parent", platform, str(tmp_path)),
        cwd=ROOT, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
    )
    bot = 0
    try:
        bot = await bot_of_a_parent(parent)
        assert still_running(bot)
        parent.kill()
        await parent.wait()

        async def bot_ended() -> bool:
            return not still_running(bot)

        await wait_until(bot_ended, ENDED_WITHIN, "the bot process to end with its parent")
    finally:
        with contextlib.suppress(ProcessLookupError):
            parent.kill()
        await parent.wait()
        if bot:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(bot, signal.SIGKILL)
