"""Grading authored sample attempts: extract the final answer, then grade it."""

from __future__ import annotations

import pytest

from bot.verifier import Checker, Grade

pytestmark = pytest.mark.asyncio(loop_scope="module")

POLISHED = """Because both legs are the same distance, the average speed is the average:

(15 + 30) / 2 = 22.5 km/h

Final answer: 22.5
"""
HEDGE = """If you average the two speeds: (15 + 30) / 2 = 22.5.
If you divide total distance by total time: 60 km / 3 h = 20.

Final answer: 20 or 22.5
"""
SECOND_LOOK = """speeds are 15 and 30, so the average is (15 + 30) / 2 = 22.5

wait, let me re-check that. redo it as distance / time:
up: 30 / 15 = 2 h
down: 30 / 30 = 1 h
60 / 3 = 20

Final answer: 20
"""


@pytest.mark.parametrize(
    ("attempt", "gold", "read"),
    [
        ("Three fours make \\boxed{12}.", "12", "12"),
        ("Halving 5 gives \\boxed{\\frac{5}{2}}", "2.5", "5/2"),
        ("Adding them up, the answer is 12.", "12", "12"),
        ("The final answer is $\\frac{3}{4}$.", "0.75", "3/4"),
        ("She had 5 apples and bought 7 more, so she has 12 apples.", "12", "12"),
        ("Each side is 3, so the area is 3 * 3 = 9", "9", "9"),
        ("The result is **42**.", "42", "42"),
        (SECOND_LOOK, "20", "20"),
    ],
)
async def test_correct_attempts(
    shared_checker: Checker, attempt: str, gold: str, read: str
) -> None:
    verdict = await shared_checker.check_attempt(attempt, gold)
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.read == read


async def test_a_wrong_final_answer_is_incorrect(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_attempt(POLISHED, "20")
    assert (verdict.outcome, verdict.read) == (Grade.INCORRECT, "22.5")


@pytest.mark.parametrize(
    "attempt", [HEDGE, "Half of 6 is 3 ... so it's 3 or 4", "Maybe \\boxed{3} or \\boxed{4}"]
)
async def test_hedging_attempts_earn_nothing(shared_checker: Checker, attempt: str) -> None:
    verdict = await shared_checker.check_attempt(attempt, "4" if "4" in attempt else "20")
    assert verdict.outcome is Grade.REJECTED
    assert verdict.reward == 0
    assert "more than one answer" in verdict.reason


async def test_an_attempt_without_an_answer_is_rejected(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_attempt("I am not sure how to start.", "3")
    assert verdict.outcome is Grade.REJECTED
    assert "couldn't find a final answer" in verdict.reason


async def test_an_overlong_attempt_is_rejected_before_any_work(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_attempt("step " * 2_000 + "\\boxed{3}", "3")
    assert verdict.outcome is Grade.REJECTED
    assert "too long" in verdict.reason


async def test_a_hidden_direction_override_in_an_attempt_is_rejected(
    shared_checker: Checker,
) -> None:
    verdict = await shared_checker.check_attempt("The answer is \u202e21", "12")
    assert verdict.outcome is Grade.REJECTED
    assert "text-direction" in verdict.reason
