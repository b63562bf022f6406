"""Finding the final answer in a worked attempt."""

from __future__ import annotations

import pytest

from bot.verifier import extract_final_answer
from bot.verifier.errors import ReadError
from bot.verifier.extract import find_boxed


@pytest.mark.parametrize(
    ("attempt", "final"),
    [
        ("We multiply 3 by 4 and get \\boxed{12}.", "12"),
        ("First 7, then \\boxed{\\frac{1}{2}} at the end.", "\\frac{1}{2}"),
        ("Box it twice, same value: \\boxed{5} and again \\boxed{5}.", "5"),
        ("\\boxed{12 \\text{ cm}}", "12"),
        ("Step 1: 2+2 = 4. So the answer is 8.", "8"),
        ("Final answer: 22.5", "22.5"),
        ("The final answer is $\\frac{3}{4}$.", "$\\frac{3}{4}$"),
        ("Answer = -3", "-3"),
        ("The answer is 12 apples.", "12"),
        ("The answer is 3.", "3"),
        ("so 3 * 4 = 12", "12"),
        ("Total: 60 / 3 = 20\ncheck: fine", "20"),
        ("The result is **42**, clearly.", "42"),
        ("So the probability is $\\frac{1}{2}$.", "\\frac{1}{2}"),
        ("She had 5 apples, bought 7 more, and now has 12 apples.", "12"),
        ("We end up with 1,000 dollars.", "1,000"),
        ("It costs $2.50 in total.", "$2.50"),
        ("That leaves 3/4 of the cake.", "3/4"),
        ("42", "42"),
    ],
)
def test_finds_the_final_answer(attempt: str, final: str) -> None:
    assert extract_final_answer(attempt) == final


@pytest.mark.parametrize("attempt", ["No numbers here at all.", "", "   \n  "])
def test_returns_none_without_an_answer(attempt: str) -> None:
    assert extract_final_answer(attempt) is None


@pytest.mark.parametrize(
    "attempt",
    [
        "Half of 6 is 3 ... so it's 3 or 4",
        "Final answer: 20 or 22.5",
        "So x = 3 or x = 4.",
        "The answer is 3 \\pm 1.",
        "First 2+2 = 4, so it's 3 or 4",
    ],
)
def test_hedging_attempts_are_refused(attempt: str) -> None:
    with pytest.raises(ReadError, match="more than one answer"):
        extract_final_answer(attempt)


def test_different_boxed_answers_are_refused() -> None:
    with pytest.raises(ReadError, match="boxes more than one answer"):
        extract_final_answer("Maybe \\boxed{3}, or maybe \\boxed{4}.")


def test_a_boxed_answer_wins_over_later_text() -> None:
    assert extract_final_answer("\\boxed{7}. Then we note 2 + 2 = 4 in passing.") == "7"


def test_find_boxed_handles_nesting_and_escaped_braces() -> None:
    assert find_boxed("\\boxed{\\frac{1}{2}} and \\boxed{\\{3\\}}") == ["\\frac{1}{2}", "\\{3\\}"]


def test_find_boxed_ignores_an_unclosed_box() -> None:
    assert find_boxed("\\boxed{3") == []


def test_find_boxed_is_linear_on_hostile_input() -> None:
    assert find_boxed("\\boxed{" * 20_000) == []
