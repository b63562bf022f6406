"""Benchmark the answer checker: latency per check, and recovery after a pathological input.

Run ``python benchmarks/bench_checker.py [--quick]``. ``run(quick)`` returns the figures as
a dict for other tooling.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.verifier import Checker, Grade

EQUAL_CASES = [
    ("0.5", "1/2"), ("1/2", "1/2"), ("\\frac{2}{4}", "1/2"), ("50%", "1/2"),
    ("$2.50", "5/2"), ("\\boxed{2.5}", "5/2"), ("x = 3", "3"), ("3.0", "3"),
    ("1,000", "1000"), ("(x+1)^2", "x^2+2x+1"), ("\u22123", "-3"),
]
NOT_EQUAL_CASES = [
    ("3 or 4", "4"), ("2+2=5", "5"), ("3!", "3"), ("1e6", "1"), ("- 3", "3"),
    ("3.14", "pi"), ("0.333", "1/3"),
]
PATHOLOGICAL = "(a+b+c+d+e+f)^20"
"""Allowed by the parser but takes far longer than the timeout to expand."""

FULL_ROUNDS = 50
QUICK_ROUNDS = 5
_POLL_SECONDS = 0.005


def run(quick: bool = False) -> dict[str, float]:
    """Measure the checker and return median/p99 latency and recovery time in milliseconds."""
    return asyncio.run(_measure(QUICK_ROUNDS if quick else FULL_ROUNDS))


async def _measure(rounds: int) -> dict[str, float]:
    """Warm a checker, time the acceptance cases `rounds` times, then time a recovery."""
    async with Checker() as checker:
        await _check_all(checker)
        latencies: list[float] = []
        for _ in range(rounds):
            latencies += await _check_all(checker)
        recover_ms, respawn_ms = await _recovery(checker)
    return {
        "checker_median_ms": statistics.median(latencies),
        "checker_p99_ms": statistics.quantiles(latencies, n=100)[98],
        "checker_recover_ms": recover_ms,
        "checker_respawn_ms": respawn_ms,
        "checker_checks": float(len(latencies)),
    }


async def _check_all(checker: Checker) -> list[float]:
    """Check every case once, asserting the expected outcome; return each latency in ms."""
    latencies = []
    for cases, correct in ((EQUAL_CASES, True), (NOT_EQUAL_CASES, False)):
        for answer, gold in cases:
            started = time.perf_counter()
            verdict = await checker.check_answer(answer, gold)
            latencies.append((time.perf_counter() - started) * 1000)
            assert (verdict.outcome is Grade.CORRECT) is correct, (answer, gold, verdict)
    return latencies


async def _recovery(checker: Checker) -> tuple[float, float]:
    """Time from a worker-killing timeout to the next good check, and to a full pool again."""
    workers = checker.idle_workers
    verdict = await checker.check_answer(PATHOLOGICAL, "0")
    assert verdict.outcome is Grade.REJECTED, verdict
    killed = time.perf_counter()
    after = await checker.check_answer("0.5", "1/2")
    assert after.outcome is Grade.CORRECT, after
    recovered = time.perf_counter()
    while checker.idle_workers < workers:
        await asyncio.sleep(_POLL_SECONDS)
    respawned = time.perf_counter()
    return (recovered - killed) * 1000, (respawned - killed) * 1000


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, for CI")
    results = run(parser.parse_args(argv).quick)
    print(f"checker: {results['checker_checks']:.0f} checks, "
          f"median {results['checker_median_ms']:.2f} ms, p99 {results['checker_p99_ms']:.2f} ms")
    print(f"after a pathological input: next check served {results['checker_recover_ms']:.1f} ms "
          f"later; replacement worker ready after {results['checker_respawn_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
