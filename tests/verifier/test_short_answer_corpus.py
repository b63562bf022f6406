"""No item of the short-answer corpus gets a wrong verdict from the checker's real grading.

A wrong verdict is CORRECT where the corpus says incorrect, no-credit or ask, or INCORRECT where
it says correct or ask. A refusal is allowed here: it lowers the benchmark's agreement, it is
not wrong. Items are graded with their unit when `grade_answer` takes `unit=`.
"""

from __future__ import annotations

import pytest

from benchmarks.graders import checker_result, checker_takes_unit, grade_with_checker
from benchmarks.short_answers import ShortAnswer, load

ITEMS = load()
TAKES_UNIT = checker_takes_unit()
AWAITING_UNITS = {
    "units: '20 m/s' vs '20' [km/h] -> ask",
    "units: 'Final answer: 20 m/s' vs '20' [km/h] -> ask",
    "units: '5 m' vs '5' [m] -> correct",
    "units: '12 m' vs '12' [cm] -> ask",
    "units: '3 g' vs '3' [kg] -> ask",
    "units: '3000 g' vs '3' [kg] -> ask",
    "units: '45 s' vs '45' [s] -> correct",
    "units: '2.5 h' vs '2.5' [h] -> correct",
    "units: '5 m' vs '5' -> ask",
}
"""Items graded wrongly until the checker takes `unit=` and stops reading a unit letter as a
variable (the units work of issue #15). Expected to fail while `grade_answer` has no `unit=`;
once it has one they are checked like every other item."""


def wrong_verdicts(items: list[ShortAnswer]) -> list[str]:
    """Each item the checker gives a wrong verdict, with the verdict it gave."""
    wrong = []
    for item in items:
        outcome = grade_with_checker(item, TAKES_UNIT)
        if checker_result(outcome, item.expected) == "wrong":
            wrong.append(f"{item} (got {outcome.value})")
    return wrong


def test_no_item_gets_a_wrong_verdict() -> None:
    checked = [item for item in ITEMS if TAKES_UNIT or str(item) not in AWAITING_UNITS]
    wrong = wrong_verdicts(checked)
    assert not wrong, f"{len(wrong)} wrong verdicts:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "item",
    [pytest.param(item, id=str(item), marks=pytest.mark.xfail(
        not TAKES_UNIT, strict=True, reason="the checker takes no unit yet (issue #15, units)"))
     for item in ITEMS if str(item) in AWAITING_UNITS],
)
def test_unit_items_get_no_wrong_verdict(item: ShortAnswer) -> None:
    assert not wrong_verdicts([item])


def test_every_awaited_item_is_in_the_corpus() -> None:
    assert {str(item) for item in ITEMS} >= AWAITING_UNITS
