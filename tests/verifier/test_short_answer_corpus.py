"""No item of the short-answer corpus gets a wrong verdict from the checker's real grading.

A wrong verdict is CORRECT where the corpus says incorrect, no-credit or ask, or INCORRECT where
it says correct or ask. A refusal is allowed here: it lowers the benchmark's agreement, it is
not wrong. Items are graded in their unit, when they name one.
"""

from __future__ import annotations

from benchmarks.graders import checker_result, grade_with_checker
from benchmarks.short_answers import ShortAnswer, load

ITEMS = load()


def wrong_verdicts(items: list[ShortAnswer]) -> list[str]:
    """Each item the checker gives a wrong verdict, with the verdict it gave."""
    wrong = []
    for item in items:
        outcome = grade_with_checker(item)
        if checker_result(outcome, item.expected) == "wrong":
            wrong.append(f"{item} (got {outcome.value})")
    return wrong


def test_no_item_gets_a_wrong_verdict() -> None:
    wrong = wrong_verdicts(ITEMS)
    assert not wrong, f"{len(wrong)} wrong verdicts:\n" + "\n".join(wrong)
