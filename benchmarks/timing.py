"""Timing many concurrent operations: rate, latency percentiles and failures."""

from __future__ import annotations

import asyncio
import math
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

Operation = Callable[[], Awaitable[object]]


@dataclass(frozen=True)
class Burst:
    """What a burst of operations measured: completions per second and latency in ms."""

    count: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Operations that succeeded, per second of wall time."""
        return (self.count - self.errors) / self.seconds if self.seconds > 0 else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile `q` (0-100) of `values`."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[float]) -> float:
    """The median of `values`."""
    return statistics.median(values)


def elapsed_ms(started: float) -> float:
    """Milliseconds since a `time.perf_counter()` reading."""
    return (time.perf_counter() - started) * 1000


def error_kind(error: BaseException) -> str:
    """A short name for a failure, with the first line of its underlying cause."""
    cause = error.__cause__ or error
    first_line = (str(cause).splitlines() or [""])[0][:100]
    return f"{type(error).__name__} ({type(cause).__name__}: {first_line})"


async def burst(operations: Sequence[Operation], concurrency: int) -> Burst:
    """Run every operation, at most `concurrency` at a time; latency excludes the queue."""
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []
    failures: Counter[str] = Counter()

    async def one(operation: Operation) -> None:
        async with gate:
            started = time.perf_counter()
            try:
                await operation()
            except Exception as error:
                failures[error_kind(error)] += 1
            latencies.append(elapsed_ms(started))

    started = time.perf_counter()
    await asyncio.gather(*(one(operation) for operation in operations))
    seconds = time.perf_counter() - started
    return Burst(len(operations), seconds, percentile(latencies, 50), percentile(latencies, 99),
                 sum(failures.values()), dict(failures))


def combine(bursts: Sequence[Burst]) -> Burst:
    """Rounds of one path summarised: the median round by rate, median percentiles."""
    ranked = sorted(bursts, key=lambda b: b.rate)
    middle = ranked[len(ranked) // 2]
    kinds: Counter[str] = Counter()
    for measured in bursts:
        kinds.update(measured.error_kinds)
    return Burst(middle.count, middle.seconds, median([b.p50_ms for b in bursts]),
                 median([b.p99_ms for b in bursts]), sum(kinds.values()), dict(kinds))
