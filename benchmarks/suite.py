"""The benchmarks the runner knows, and running one of them safely."""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field

Figure = float | str | None
NOT_MEASURED = "not measured in this run"


@dataclass(frozen=True)
class NotMeasured:
    """A figure a benchmark could not measure in this run, and why: reported as null."""

    why: str


@dataclass(frozen=True)
class Benchmark:
    """A module with `run(quick: bool) -> dict` and the headline keys it must report."""

    name: str
    module: str
    keys: tuple[str, ...]


@dataclass
class Outcome:
    """What running one benchmark gave: its figures, notes on them, and whether it failed."""

    figures: dict[str, Figure] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)
    failed: bool = False
    seconds: float = 0.0


BENCHMARKS = (
    Benchmark("votes", "benchmarks.bench_votes", ("vote_path_ratio", "vote_p99_ms")),
    Benchmark("burst", "benchmarks.bench_burst",
              ("burst_p99_ack_ms", "burst_lost", "edits_per_2s_max")),
    Benchmark("assigned", "benchmarks.bench_assigned",
              ("assigned_p99_ack_ms", "assigned_lost", "assigned_card_edits_per_2s_max",
               "assigned_rss_ratio")),
    Benchmark("peer", "benchmarks.bench_peer",
              ("peer_p99_ack_ms", "peer_lost", "peer_why_p99_ack_ms", "peer_show_p99_ms")),
    Benchmark("recall", "benchmarks.bench_recall",
              ("recall_p99_ack_ms", "recall_lost", "recall_doubled", "recall_pace_ratio",
               "recall_pace_kept", "recall_rss_ratio", "recall_due_closed_ratio")),
    Benchmark("checker", "benchmarks.bench_checker", ("checker_median_ms",)),
    Benchmark("fairness", "benchmarks.bench_fairness", ("fair_flood_max_ms", "fair_crowd_max_ms")),
    Benchmark("scale", "benchmarks.bench_scale",
              ("rss_mb_1000_runs", "reveal_ms_10", "reveal_ms_10000")),
    Benchmark("checker_vs_math_verify", "benchmarks.bench_checker_vs_math_verify",
              ("short_checker_agreement_pct", "short_math_verify_agreement_pct",
               "short_checker_wrong", "short_speedup")),
)
REQUIRED_KEYS = tuple(key for benchmark in BENCHMARKS for key in benchmark.keys)


def skipped(benchmark: Benchmark, why: str = NOT_MEASURED) -> Outcome:
    """Null headline figures with a note saying why."""
    return Outcome(dict.fromkeys(benchmark.keys), dict.fromkeys(benchmark.keys, why))


def run_benchmark(benchmark: Benchmark, quick: bool) -> Outcome:
    """Run one benchmark; a missing or unfinished module gives null figures, not a crash."""
    started = time.perf_counter()
    try:
        module = importlib.import_module(benchmark.module)
        outcome = _outcome(benchmark, module.run(quick))
    except ModuleNotFoundError as error:
        if error.name != benchmark.module:
            return _failure(benchmark, error)
        return skipped(benchmark)
    except NotImplementedError:
        return skipped(benchmark)
    except Exception as error:
        return _failure(benchmark, error)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _outcome(benchmark: Benchmark, figures: Mapping[str, object]) -> Outcome:
    outcome = skipped(benchmark)
    for name, value in figures.items():
        outcome.notes.pop(name, None)
        _record(outcome, name, value)
    return outcome


def _record(outcome: Outcome, name: str, value: object) -> None:
    """Put one reported value where it belongs: a figure, a null with its note, or details."""
    if isinstance(value, Mapping):
        outcome.details[name] = dict(value)
    elif isinstance(value, NotMeasured):
        outcome.figures[name] = None
        outcome.notes[name] = value.why
    else:
        outcome.figures[name] = as_figure(value)
        if isinstance(value, str) and value:
            outcome.notes[name] = value


def as_figure(value: object) -> Figure:
    """A reported value as a float, a string or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)
    raise TypeError(f"a benchmark reported {value!r}; expected a number, text or None")


def _failure(benchmark: Benchmark, error: BaseException) -> Outcome:
    traceback.print_exception(error)
    outcome = skipped(benchmark, f"failed: {type(error).__name__}: {error}")
    outcome.failed = True
    return outcome
