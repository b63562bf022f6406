"""The bot's checker side by side with math-verify on the short-answer corpus, in one run.

Both graders run warm and in-process on the same items: one untimed pass gives the verdicts
that are scored (and warms both up), then timed rounds grade every item with both graders in
turn, the order flipping each round, so a machine whose speed swings slows both alike. The
figures are medians over rounds. Run ``python -m benchmarks --only checker_vs_math_verify``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from benchmarks.graders import (
    MATH_VERIFY_MISSING,
    Result,
    checker_result,
    grade_with_checker,
    load_math_verify,
    math_verify_result,
)
from benchmarks.short_answers import CATEGORIES, ShortAnswer, load
from benchmarks.suite import NotMeasured
from benchmarks.timing import elapsed_ms, median, percentile
from bot.verifier.verdict import Grade

NAME = "checker_vs_math_verify"
FULL_ROUNDS = 3
QUICK_ROUNDS = 1
QUICK_STRIDE = 10
"""In quick mode every tenth item is graded: math-verify takes tens of ms per verdict."""
QUICK_SKIPS_BARE = "not measured in --quick"
CHECKER, MATH_VERIFY = "checker", "math_verify"
GradeOne = Callable[[ShortAnswer], object]
Scorer = Callable[[object, str], Result]


@dataclass(frozen=True)
class Graded:
    """One grader's scored results on every item, and its latencies per timed round."""

    results: list[Result]
    rounds: list[list[float]]

    def count(self, result: Result, where: Iterable[int] | None = None) -> int:
        """How many items got `result` (only those at the indices `where`, when given)."""
        chosen = range(len(self.results)) if where is None else where
        return sum(1 for index in chosen if self.results[index] == result)

    @property
    def agreement_pct(self) -> float:
        """The share of items where the grader agreed with the label, in percent."""
        return 100 * self.count("agree") / len(self.results)

    @property
    def median_ms(self) -> float:
        """The median over rounds of each round's median time per verdict."""
        return median([median(latencies) for latencies in self.rounds])

    @property
    def p99_ms(self) -> float:
        """The median over rounds of each round's 99th-percentile time per verdict."""
        return median([percentile(latencies, 99) for latencies in self.rounds])


def run(quick: bool = False) -> dict[str, object]:
    """Grade the corpus with both graders; agreement, wrong verdicts and time per verdict."""
    items = load()[::QUICK_STRIDE] if quick else load()
    graders: dict[str, tuple[GradeOne, Scorer]] = {
        CHECKER: (grade_with_checker, _score_checker)}
    math_verify = load_math_verify()
    if math_verify is not None:
        graders[MATH_VERIFY] = (math_verify, _score_math_verify)
    graded = grade_all(graders, items, QUICK_ROUNDS if quick else FULL_ROUNDS)
    figures: dict[str, object] = {
        "short_items": len(items), "short_rounds": QUICK_ROUNDS if quick else FULL_ROUNDS,
        **grader_figures(CHECKER, graded[CHECKER]),
        "short_checker_refused": graded[CHECKER].count("refused"),
        **comparison_figures(graded, items, quick),
    }
    figures[NAME] = details(graded, items)
    return figures


def grade_all(graders: Mapping[str, tuple[GradeOne, Scorer]], items: Sequence[ShortAnswer],
              rounds: int) -> dict[str, Graded]:
    """Score one warm pass of every grader, then time `rounds` interleaved rounds."""
    results = {name: [score(grade(item), item.expected) for item in items]
               for name, (grade, score) in graders.items()}
    grades = {name: grade for name, (grade, _) in graders.items()}
    timed = [timed_round(grades, items, flip=bool(index % 2)) for index in range(rounds)]
    return {name: Graded(results[name], [round_[name] for round_ in timed]) for name in graders}


def timed_round(grades: Mapping[str, GradeOne], items: Sequence[ShortAnswer],
                flip: bool) -> dict[str, list[float]]:
    """Each item graded by every grader in turn (reversed when `flip`); ms per verdict."""
    names = list(grades)[::-1] if flip else list(grades)
    latencies: dict[str, list[float]] = {name: [] for name in names}
    for item in items:
        for name in names:
            started = time.perf_counter()
            grades[name](item)
            latencies[name].append(elapsed_ms(started))
    return latencies


def grader_figures(name: str, graded: Graded) -> dict[str, float]:
    """Agreement, wrong verdicts and time per verdict of one grader, named after it."""
    return {
        f"short_{name}_agreement_pct": graded.agreement_pct,
        f"short_{name}_wrong": graded.count("wrong"),
        f"short_{name}_median_ms": graded.median_ms,
        f"short_{name}_p99_ms": graded.p99_ms,
    }


def comparison_figures(graded: Mapping[str, Graded], items: Sequence[ShortAnswer],
                       quick: bool = False) -> dict[str, object]:
    """math-verify's figures and the two comparisons; null with a note when it is missing."""
    checker, other = graded[CHECKER], graded.get(MATH_VERIFY)
    if other is None:
        names = [*grader_figures(MATH_VERIFY, checker), "short_math_verify_wrong_on_ask",
                 "short_math_verify_bare_agreement_pct", "short_agreement_lead_pct",
                 "short_speedup"]
        return dict.fromkeys(names, NotMeasured(MATH_VERIFY_MISSING))
    asks = [index for index, item in enumerate(items) if item.expected == "ask"]
    return grader_figures(MATH_VERIFY, other) | {
        "short_math_verify_wrong_on_ask": other.count("wrong", asks),
        "short_math_verify_bare_agreement_pct":
            NotMeasured(QUICK_SKIPS_BARE) if quick else _bare_agreement(items),
        "short_agreement_lead_pct": checker.agreement_pct - other.agreement_pct,
        "short_speedup": other.median_ms / checker.median_ms,
    }


def details(graded: Mapping[str, Graded], items: Sequence[ShortAnswer]) -> dict[str, object]:
    """Agreement per category and every item a grader gave a wrong verdict."""
    return {
        "per_category": {category: category_row(graded, items, category)
                         for category in CATEGORIES
                         if any(item.category == category for item in items)},
        **{f"{name}_wrong_items": [str(item) for item, result
                                   in zip(items, one.results, strict=True) if result == "wrong"]
           for name, one in graded.items()},
    }


def category_row(graded: Mapping[str, Graded], items: Sequence[ShortAnswer],
                 category: str) -> dict[str, float]:
    """One category's size, and each grader's agreement and wrong verdicts on it."""
    chosen = [index for index, item in enumerate(items) if item.category == category]
    row: dict[str, float] = {"items": len(chosen)}
    for name, one in graded.items():
        row[f"{name}_agreement_pct"] = round(100 * one.count("agree", chosen) / len(chosen), 1)
        row[f"{name}_wrong"] = one.count("wrong", chosen)
    row["checker_refused"] = graded[CHECKER].count("refused", chosen)
    if MATH_VERIFY in graded:
        asks = [index for index in chosen if items[index].expected == "ask"]
        row["math_verify_wrong_on_ask"] = graded[MATH_VERIFY].count("wrong", asks)
    return row


def _bare_agreement(items: Sequence[ShortAnswer]) -> float:
    """math-verify's agreement when given the strings without `$...$`, for context."""
    bare = load_math_verify(bare=True)
    assert bare is not None
    agreed = sum(1 for item in items if _score_math_verify(bare(item), item.expected) == "agree")
    return 100 * agreed / len(items)


def _score_checker(outcome: object, expected: str) -> Result:
    assert isinstance(outcome, Grade)
    return checker_result(outcome, expected)


def _score_math_verify(verdict: object, expected: str) -> Result:
    return math_verify_result(bool(verdict), expected)
