"""The runner keeps every key when a benchmark is missing, unfinished or broken."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator

import pytest

from benchmarks.__main__ import results
from benchmarks.suite import BENCHMARKS, NOT_MEASURED, Benchmark, Outcome, run_benchmark, skipped
from benchmarks.table import render

SLOT = Benchmark("slot", "benchmarks_test_slot", ("first_ms", "second"))


@pytest.fixture
def fake_module() -> Iterator[types.ModuleType]:
    """A benchmark module registered under SLOT's name for one test."""
    module = types.ModuleType(SLOT.module)
    sys.modules[SLOT.module] = module
    yield module
    del sys.modules[SLOT.module]


def test_a_missing_module_reports_null_figures_with_a_note() -> None:
    outcome = run_benchmark(SLOT, quick=True)
    assert outcome.figures == {"first_ms": None, "second": None}
    assert outcome.notes == {"first_ms": NOT_MEASURED, "second": NOT_MEASURED}
    assert not outcome.failed


def test_an_unfinished_module_reports_null_figures(fake_module: types.ModuleType) -> None:
    def run(quick: bool) -> dict[str, float]:
        raise NotImplementedError

    fake_module.run = run  # type: ignore[attr-defined]
    outcome = run_benchmark(SLOT, quick=True)
    assert outcome.figures == {"first_ms": None, "second": None} and not outcome.failed


def test_a_broken_module_is_a_failure_that_keeps_the_keys(fake_module: types.ModuleType) -> None:
    def run(quick: bool) -> dict[str, float]:
        raise RuntimeError("boom")

    fake_module.run = run  # type: ignore[attr-defined]
    outcome = run_benchmark(SLOT, quick=True)
    assert outcome.failed and set(outcome.figures) == {"first_ms", "second"}
    assert "boom" in outcome.notes["first_ms"]


def test_figures_come_back_as_floats_text_or_null(fake_module: types.ModuleType) -> None:
    fake_module.run = lambda quick: {"first_ms": 3, "extra": "why"}  # type: ignore[attr-defined]
    outcome = run_benchmark(SLOT, quick=True)
    assert outcome.figures == {"first_ms": 3.0, "second": None, "extra": "why"}
    assert outcome.notes == {"second": NOT_MEASURED, "extra": "why"}


def test_the_table_marks_targets_met_and_missed() -> None:
    table = render({"vote_p99_ms": 12.0, "vote_path_ratio": 0.1, "burst_lost": None}, {})
    lines = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert lines["vote_p99_ms"] == ["vote_p99_ms", "12", "<", "50", "yes"]
    assert lines["vote_path_ratio"][-1] == "NO"
    assert lines["burst_lost"] == ["burst_lost", "n/a", "==", "0"]


def test_only_one_benchmark_keeps_the_others_figures_from_the_file() -> None:
    earlier = results(
        [Outcome({"vote_p99_ms": 12.0, "vote_errors": 0.0}, {"vote_errors": "why"}, seconds=5)
         if b.name == "votes" else skipped(b) for b in BENCHMARKS],
        quick=False, only=None,
    )
    fairness = Outcome({"fair_crowd_max_ms": 900.0, "fair_flood_max_ms": 40.0}, seconds=30)
    now = results(
        [fairness if b.name == "fairness" else skipped(b, "not measured (--only)")
         for b in BENCHMARKS],
        quick=False, only="fairness", earlier=json.loads(json.dumps(earlier)),
    )
    assert now["vote_p99_ms"] == 12.0 and now["vote_errors"] == 0.0
    assert now["fair_crowd_max_ms"] == 900.0
    notes = now["notes"]
    assert isinstance(notes, dict) and notes["vote_errors"] == "why"
    assert "fair_crowd_max_ms" not in notes
    assert now["seconds"] == {**earlier["seconds"], "fairness": 30.0}  # type: ignore[dict-item]
    assert now["targets"]["vote_p99_ms"]["met"] is True  # type: ignore[index]
    assert now["kept_from"] == earlier["timestamp"]
