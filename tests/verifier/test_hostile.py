"""Hostile input: every case earns nothing, quickly, while normal checks keep being served."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import pytest_asyncio

from bot.verifier import Checker, Grade
from tests.waiting import wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

TIMEOUT_SECONDS = 2.0
MARGIN_SECONDS = 1.5

HOSTILE = [
    pytest.param("9**9**9**9", "too big", id="tower-of-powers"),
    pytest.param("(10^{10})!", "Factorials", id="huge-factorial"),
    pytest.param("x" * 1_000_000, "too long", id="one-megabyte"),
    pytest.param("\\(" * 10_000, "too long", id="ten-thousand-delimiters"),
    pytest.param("1e999999999", "too big", id="huge-exponent"),
    pytest.param("", "no answer", id="empty"),
    pytest.param("1/0", "divides by zero", id="division-by-zero"),
    pytest.param("\u202e21", "text-direction", id="right-to-left-override"),
    pytest.param("(" * 150 + ")" * 50, "nested too deeply", id="deep-brackets"),
    pytest.param("(a+b+c+d+e+f)^20", "took too long", id="slow-expansion"),
]


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def every_worker_ready(shared_checker: Checker) -> None:
    """Start each test with both workers idle: one killed by the test before is replaced first.

    A replacement worker takes a while to start on a busy machine, and the timings below are of
    the checks, not of that start.
    """

    async def both_idle() -> bool:
        return shared_checker.idle_workers == 2

    await wait_until(both_idle, timeout=60, what="both checker workers idle")


async def _check_beside_a_normal_one(checker: Checker, answer: str) -> tuple[float, float]:
    """Run a hostile and a normal check together; return when each finished (seconds)."""
    started = time.perf_counter()

    async def timed(text: str, gold: str, outcome: Grade) -> float:
        verdict = await checker.check_answer(text, gold)
        assert verdict.outcome is outcome, verdict
        return time.perf_counter() - started

    hostile = timed(answer, "12", Grade.REJECTED)
    normal = timed("\\frac{1}{2}", "0.5", Grade.CORRECT)
    hostile_done, normal_done = await asyncio.gather(hostile, normal)
    return hostile_done, normal_done


@pytest.mark.parametrize(("answer", "reason"), HOSTILE)
async def test_hostile_input_is_rejected_within_the_timeout(
    shared_checker: Checker, answer: str, reason: str
) -> None:
    started = time.perf_counter()
    verdict = await shared_checker.check_answer(answer, "12")
    assert time.perf_counter() - started < TIMEOUT_SECONDS + MARGIN_SECONDS
    assert verdict.outcome is Grade.REJECTED
    assert verdict.reward == 0
    assert reason in verdict.reason
    assert len(verdict.read) <= 60


@pytest.mark.parametrize(("answer", "reason"), HOSTILE)
async def test_normal_checks_are_served_beside_hostile_ones(
    shared_checker: Checker, answer: str, reason: str
) -> None:
    hostile_done, normal_done = await _check_beside_a_normal_one(shared_checker, answer)
    assert hostile_done < TIMEOUT_SECONDS + MARGIN_SECONDS
    assert normal_done < TIMEOUT_SECONDS + MARGIN_SECONDS


async def test_a_normal_check_finishes_while_a_slow_one_is_still_running(
    shared_checker: Checker,
) -> None:
    slow = asyncio.create_task(shared_checker.check_answer("(a+b+c+d+e+f)^20", "0"))
    normal = await shared_checker.check_answer("1,000", "1000")
    assert normal.outcome is Grade.CORRECT
    assert not slow.done()
    assert (await slow).outcome is Grade.REJECTED


async def test_code_injection_is_never_run(shared_checker: Checker, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = f"__import__('os').system('touch {marker}')"
    verdict = await shared_checker.check_answer(payload, "0")
    assert verdict.outcome is Grade.REJECTED
    assert "isn't part of that" in verdict.reason
    # The marker's path holds digits (pytest-0/...), so the gold must be one no path can spell.
    attempt = await shared_checker.check_attempt(f"The answer is {payload}", "0.5")
    assert attempt.reward == 0
    assert not marker.exists()


async def test_zero_width_space_is_stripped_then_graded(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("1\u200b000", "1000")
    assert (verdict.outcome, verdict.read) == (Grade.CORRECT, "1000")


async def test_many_concurrent_checks_all_succeed(shared_checker: Checker) -> None:
    verdicts = await asyncio.gather(
        *(shared_checker.check_answer(f"{n}/2", f"{n * 5}/10") for n in range(50))
    )
    assert all(verdict.outcome is Grade.CORRECT for verdict in verdicts)
