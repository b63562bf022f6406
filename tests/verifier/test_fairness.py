"""Sharing the checker: niced workers, a bounded queue, turns for slow checks, clear failures."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable

import pytest

from bot.verifier import Checker, CheckerBusy, CheckerCrashed, Grade
from bot.verifier.errors import BUSY, CRASHED
from tests.waiting import wait_until

SLOW_ANSWER = "(a+b+c+d+e+f)^20"
"""Allowed by the parser, but takes far longer than any timeout here to expand."""


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (with a deadline) until a plain condition on the checker holds."""

    async def holds() -> bool:
        return condition()

    await wait_until(holds, 30.0, what)


async def test_workers_run_at_a_lower_cpu_priority_than_the_bot() -> None:
    async with Checker(workers=2) as checker:
        bot = os.getpriority(os.PRIO_PROCESS, 0)
        niceness = [os.getpriority(os.PRIO_PROCESS, pid) for pid in checker.worker_pids]
        assert len(niceness) == 2 and all(nice > bot for nice in niceness), (bot, niceness)
        assert (await checker.check_answer("3/4", "0.75")).outcome is Grade.CORRECT


async def test_a_full_queue_refuses_at_once_with_the_busy_answer() -> None:
    async with Checker(workers=1, timeout=5.0, queue_limit=1) as checker:
        slow = asyncio.create_task(checker.check_answer(SLOW_ANSWER, "0"))
        await until(lambda: checker.idle_workers == 0, "the slow check to take the worker")
        waiting = asyncio.create_task(checker.check_answer("3/4", "0.75"))
        await until(lambda: checker.waiting_checks == 1, "a check waiting in the queue")
        with pytest.raises(CheckerBusy) as refused:
            await checker.check_answer("1/2", "0.5")
        assert refused.value.reply == BUSY == "The checker is busy; try again in a moment."
        assert "took too long" in (await slow).reason
        assert (await waiting).outcome is Grade.CORRECT


async def test_a_slow_check_gives_way_to_a_waiting_one_and_keeps_its_worker() -> None:
    async with Checker(workers=1, timeout=60.0, turn_seconds=0.1) as checker:
        [worker] = checker.worker_pids
        slow = asyncio.create_task(checker.check_answer(SLOW_ANSWER, "0"))
        await until(lambda: checker.idle_workers == 0, "the slow check to take the worker")
        assert (await checker.check_answer("3/4", "0.75")).outcome is Grade.CORRECT
        with pytest.raises(CheckerBusy):
            await slow
        assert checker.worker_pids == [worker]
        again = await checker.check_answer("\\frac{6}{8}", "3/4")
        assert again.outcome is Grade.CORRECT and checker.worker_pids == [worker]


async def test_a_slow_check_alone_keeps_its_whole_timeout() -> None:
    async with Checker(workers=1, timeout=0.5, turn_seconds=0.05) as checker:
        verdict = await checker.check_answer(SLOW_ANSWER, "0")
        assert verdict.outcome is Grade.REJECTED and "took too long" in verdict.reason


async def test_a_check_that_waits_too_long_gets_the_busy_answer() -> None:
    async with Checker(workers=1, timeout=60.0, max_wait=0.2) as checker:
        slow = asyncio.create_task(checker.check_answer(SLOW_ANSWER, "0"))
        await until(lambda: checker.idle_workers == 0, "the slow check to take the worker")
        with pytest.raises(CheckerBusy) as refused:
            await checker.check_answer("3/4", "0.75")
        assert refused.value.reply == BUSY
        slow.cancel()


async def test_a_check_whose_worker_dies_twice_raises_crashed() -> None:
    async with Checker(workers=1, timeout=60.0) as checker:
        [first] = checker.worker_pids
        slow = asyncio.create_task(checker.check_answer(SLOW_ANSWER, "0"))
        await until(lambda: checker.idle_workers == 0, "the slow check to take the worker")
        os.kill(first, signal.SIGKILL)
        await until(
            lambda: first not in checker.worker_pids and len(checker.worker_pids) == 1
            and checker.idle_workers == 0 and checker.waiting_checks == 0,
            "the check to be retried on a fresh worker",
        )
        [second] = checker.worker_pids
        os.kill(second, signal.SIGKILL)
        with pytest.raises(CheckerCrashed) as crashed:
            await slow
        assert crashed.value.reply == CRASHED and "nothing was recorded" in CRASHED
        assert (await checker.check_answer("0.75", "3/4")).outcome is Grade.CORRECT
