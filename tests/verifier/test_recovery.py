"""Workers that die or run out of time are replaced, and checking carries on."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.verifier import Checker, CheckerError, Grade
from bot.verifier.pool import WorkerPool

SLOW_ANSWER = "(a+b+c+d+e+f)^20"
ROOT = Path(__file__).resolve().parents[2]
DYING_BOT = f"""
import asyncio, os
from bot.verifier import Checker

async def main():
    checker = Checker(workers=1, timeout=60)
    await checker.start()
    print(checker.worker_pids[0], flush=True)
    asyncio.create_task(checker.check_answer({SLOW_ANSWER!r}, "0"))
    await asyncio.sleep(0.2)
    os._exit(0)

asyncio.run(main())
"""


def _process_gone(pid: int) -> bool:
    """Tell whether process `pid` has exited (a zombie awaiting its reaper counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].startswith("Z")
    except FileNotFoundError:
        return True


async def _wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Poll `condition` until it holds, failing the test after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition never became true"
        await asyncio.sleep(0.01)


async def test_timeout_rejects_and_replaces_the_worker() -> None:
    async with Checker(timeout=0.5, workers=1) as checker:
        [original] = checker.worker_pids
        verdict = await checker.check_answer(SLOW_ANSWER, "0")
        assert verdict.outcome is Grade.REJECTED
        assert "took too long" in verdict.reason
        after = await checker.check_answer("0.5", "1/2")
        assert after.outcome is Grade.CORRECT
        assert original not in checker.worker_pids
        assert len(checker.worker_pids) == 1


async def test_killing_a_worker_mid_check_does_not_stop_checking() -> None:
    async with Checker(timeout=1.0, workers=1) as checker:
        [original] = checker.worker_pids
        slow = asyncio.create_task(checker.check_answer(SLOW_ANSWER, "0"))
        await _wait_until(lambda: checker.idle_workers == 0)
        os.kill(original, signal.SIGKILL)
        assert (await slow).reward == 0
        after = await checker.check_answer("\\frac{2}{4}", "1/2")
        assert after.outcome is Grade.CORRECT
        assert original not in checker.worker_pids


async def test_an_idle_worker_killed_from_outside_is_replaced_transparently() -> None:
    async with Checker(workers=1) as checker:
        [original] = checker.worker_pids
        os.kill(original, signal.SIGKILL)
        verdict = await checker.check_answer("3.0", "3")
        assert verdict.outcome is Grade.CORRECT
        assert original not in checker.worker_pids


async def test_start_is_idempotent_and_close_stops_the_workers() -> None:
    checker = Checker(workers=2)
    await asyncio.gather(checker.start(), checker.start())
    pids = checker.worker_pids
    assert len(pids) == 2
    await checker.start()
    assert checker.worker_pids == pids
    await checker.close()
    assert checker.worker_pids == []
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)


async def test_checks_start_the_checker_on_demand_and_it_can_restart() -> None:
    checker = Checker(workers=1)
    try:
        assert (await checker.check_answer("1/2", "0.5")).reward == 1
        await checker.close()
        assert (await checker.check_answer("1/2", "0.5")).reward == 1
    finally:
        await checker.close()


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="needs /proc")
async def test_workers_run_under_a_memory_cap() -> None:
    async with Checker(memory_mb=256, workers=1) as checker:
        [pid] = checker.worker_pids
        limits = Path(f"/proc/{pid}/limits").read_text()
        address_space = next(line for line in limits.splitlines() if "address space" in line)
        assert str(256 * 1024 * 1024) in address_space


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
async def test_a_busy_worker_exits_when_the_bot_dies() -> None:
    bot = subprocess.run(
        [sys.executable, "-c", DYING_BOT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    worker_pid = int(bot.stdout)
    await _wait_until(lambda: _process_gone(worker_pid), seconds=5.0)


def test_invalid_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        Checker(timeout=0)
    with pytest.raises(ValueError):
        Checker(workers=0)


async def test_a_closed_pool_refuses_work() -> None:
    pool = WorkerPool(size=1, memory_mb=512)
    await pool.start()
    await pool.close()
    with pytest.raises(CheckerError):
        await pool.ask({"op": "answer", "text": "1", "gold": "1"}, 1.0)
