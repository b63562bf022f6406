"""The checker-versus-math-verify benchmark: how verdicts are scored, the skip, the merge."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks import __main__ as runner
from benchmarks import bench_checker_vs_math_verify as bench
from benchmarks.graders import (
    MATH_VERIFY_MISSING,
    as_latex_math,
    checker_result,
    load_math_verify,
    math_verify_result,
)
from benchmarks.merge import keep_previous
from benchmarks.short_answers import ShortAnswer
from benchmarks.suite import BENCHMARKS, NotMeasured, Outcome, run_benchmark
from bot.verifier.verdict import Grade

ITEMS = [
    ShortAnswer("integers", "3", "3", "correct"),
    ShortAnswer("integers", "3", "4", "incorrect"),
    ShortAnswer("thousands", "2.5", "2,500", "ask"),
    ShortAnswer("hedges", "4", "3 or 4", "incorrect"),
]
"""The checker agrees on the first three (the third by refusing) and refuses the hedge."""
BENCHMARK = next(b for b in BENCHMARKS if b.name == bench.NAME)


@pytest.mark.parametrize(
    ("outcome", "expected", "result"),
    [
        (Grade.CORRECT, "correct", "agree"),
        (Grade.CORRECT, "incorrect", "wrong"),
        (Grade.CORRECT, "ask", "wrong"),
        (Grade.INCORRECT, "incorrect", "agree"),
        (Grade.INCORRECT, "correct", "wrong"),
        (Grade.INCORRECT, "ask", "wrong"),
        (Grade.REJECTED, "ask", "agree"),
        (Grade.REJECTED, "correct", "refused"),
        (Grade.REJECTED, "incorrect", "refused"),
        (Grade.REJECTED, "no-credit", "agree"),
        (Grade.INCORRECT, "no-credit", "agree"),
        (Grade.CORRECT, "no-credit", "wrong"),
    ],
)
def test_a_refusal_agrees_only_with_ask_or_no_credit(
    outcome: Grade, expected: str, result: str
) -> None:
    assert checker_result(outcome, expected) == result


@pytest.mark.parametrize(
    ("verdict", "expected", "result"),
    [(True, "correct", "agree"), (False, "incorrect", "agree"), (True, "incorrect", "wrong"),
     (False, "correct", "wrong"), (True, "ask", "wrong"), (False, "ask", "wrong"),
     (False, "no-credit", "agree"), (True, "no-credit", "wrong")],
)
def test_any_boolean_on_an_ask_item_is_wrong(verdict: bool, expected: str, result: str) -> None:
    assert math_verify_result(verdict, expected) == result


def test_math_verify_is_given_latex_maths() -> None:
    assert as_latex_math("\\frac12") == "$\\frac12$"
    assert as_latex_math("The answer is $5$.") == "The answer is $5$."


@pytest.fixture
def few_items(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark grades ITEMS instead of the whole corpus."""
    monkeypatch.setattr(bench, "load", lambda: list(ITEMS))


@pytest.mark.usefixtures("few_items")
def test_without_math_verify_the_comparison_is_skipped_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "math_verify", None)
    assert load_math_verify() is None
    outcome = run_benchmark(BENCHMARK, quick=False)
    assert not outcome.failed
    assert outcome.figures["short_checker_agreement_pct"] == 75.0
    assert outcome.figures["short_checker_wrong"] == 0.0
    for key in ("short_math_verify_agreement_pct", "short_speedup", "short_agreement_lead_pct"):
        assert outcome.figures[key] is None and outcome.notes[key] == MATH_VERIFY_MISSING


@pytest.mark.usefixtures("few_items")
def test_both_graders_are_scored_on_the_same_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "load_math_verify", lambda bare=False: lambda item: True)
    figures = bench.run(quick=False)
    assert figures["short_checker_agreement_pct"] == 75.0
    assert (figures["short_checker_wrong"], figures["short_checker_refused"]) == (0, 1)
    assert figures["short_math_verify_agreement_pct"] == 25.0
    assert (figures["short_math_verify_wrong"], figures["short_math_verify_wrong_on_ask"]) == (3, 1)
    assert figures["short_agreement_lead_pct"] == 50.0
    speedup = figures["short_speedup"]
    assert isinstance(speedup, float) and speedup > 0


@pytest.mark.usefixtures("few_items")
def test_agreement_is_broken_down_per_category(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "load_math_verify", lambda bare=False: lambda item: True)
    details = bench.run(quick=False)[bench.NAME]
    assert isinstance(details, dict)
    rows = details["per_category"]
    assert list(rows) == ["integers", "thousands", "hedges"]
    assert rows["integers"]["checker_agreement_pct"] == 100.0
    assert rows["integers"]["math_verify_agreement_pct"] == 50.0
    assert rows["thousands"]["math_verify_wrong_on_ask"] == 1
    assert rows["hedges"]["checker_refused"] == 1
    assert details["checker_wrong_items"] == []
    assert len(details["math_verify_wrong_items"]) == 3


def test_rounds_take_turns_going_first() -> None:
    calls: list[str] = []
    grades = {"a": lambda item: calls.append("a"), "b": lambda item: calls.append("b")}
    first = bench.timed_round(grades, ITEMS[:2], flip=False)
    assert calls == ["a", "b", "a", "b"]
    calls.clear()
    bench.timed_round(grades, ITEMS[:2], flip=True)
    assert calls == ["b", "a", "b", "a"]
    assert {name: len(times) for name, times in first.items()} == {"a": 2, "b": 2}


def test_the_runner_turns_not_measured_and_details_into_nulls_and_a_section(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reported = {"short_speedup": NotMeasured("no yardstick"), bench.NAME: {"rows": 1},
                "short_checker_wrong": 0}
    monkeypatch.setattr(bench, "run", lambda quick: reported)
    outcome = run_benchmark(BENCHMARK, quick=True)
    assert outcome.figures["short_speedup"] is None
    assert outcome.notes["short_speedup"] == "no yardstick"
    assert outcome.details == {bench.NAME: {"rows": 1}}
    assert outcome.figures["short_checker_wrong"] == 0.0


def test_a_partial_run_keeps_the_other_figures() -> None:
    previous = {"vote_p99_ms": 10.0, "checker_median_ms": 0.3, "old_section": {"x": 1},
                "notes": {"short_speedup": "not measured"}, "seconds": {"votes": 5.0},
                "machine": {"cpu": "old", "postgresql": "15.20"}, "timestamp": "earlier"}
    current = {"vote_p99_ms": None, "short_speedup": 40.0, "short_checker_wrong": 0.0,
               "notes": {"vote_p99_ms": "not measured in this run (--only c)"},
               "seconds": {"votes": 0.0, "c": 2.0}, "timestamps": {"c": "now"},
               "machine": {"cpu": "new", "postgresql": "not measured (no URL)"},
               "quick": False, "only": "c", "timestamp": "now"}
    merged = keep_previous(current, previous, {"short_speedup", "short_checker_wrong"}, "c")
    assert merged["vote_p99_ms"] == 10.0 and merged["checker_median_ms"] == 0.3
    assert merged["old_section"] == {"x": 1} and merged["short_speedup"] == 40.0
    assert merged["notes"] == {}
    assert merged["seconds"] == {"votes": 5.0, "c": 2.0}
    assert merged["timestamps"] == {"votes": "earlier", "c": "now"}
    assert merged["targets"]["short_speedup"] == {"target": ">= 5", "met": True}
    assert merged["targets"]["vote_p99_ms"]["met"] is True
    assert merged["machine"] == {"cpu": "new", "postgresql": "15.20"}


def test_only_one_benchmark_rewrites_only_its_own_figures(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    output = tmp_path / "results.json"
    output.write_text(json.dumps({"vote_p99_ms": 12.0, "short_speedup": 1.0,
                                  "seconds": {"votes": 4.0}, "timestamp": "before"}))
    fresh = Outcome({"short_speedup": 50.0}, {}, {bench.NAME: {"per_category": {}}}, seconds=1.0)
    monkeypatch.setattr(runner, "run_benchmark", lambda benchmark, quick: fresh)
    assert runner.main(["--only", bench.NAME, "--output", str(output)]) == 0
    written = json.loads(output.read_text())
    assert written["vote_p99_ms"] == 12.0
    assert written["short_speedup"] == 50.0
    assert written[bench.NAME] == {"per_category": {}}
    assert written["seconds"]["votes"] == 4.0 and written["only"] == bench.NAME
