"""The runner keeps every key when a benchmark is missing, unfinished or broken."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from benchmarks.suite import NOT_MEASURED, Benchmark, run_benchmark
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
