"""The acceptance cases: what must and must not count as the same answer."""

from __future__ import annotations

import pytest

from bot.verifier import Checker, Grade

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("0.5", "1/2"),
        ("1/2", "1/2"),
        ("\\frac{2}{4}", "1/2"),
        ("50%", "1/2"),
        ("$2.50", "5/2"),
        ("\\boxed{2.5}", "5/2"),
        ("x = 3", "3"),
        ("3.0", "3"),
        ("1,000", "1000"),
        ("(x+1)^2", "x^2+2x+1"),
        ("\u22123", "-3"),
        ("1\u200b000", "1000"),
        ("0.75", "3/4"),
        ("75%", "3/4"),
        ("sqrt(8)", "2\\sqrt{2}"),
        ("1/sqrt(2)", "\\frac{\\sqrt{2}}{2}"),
        ("(x^2-1)/(x-1)", "x+1"),
    ],
)
async def test_equal_answers_are_correct(shared_checker: Checker, answer: str, gold: str) -> None:
    verdict = await shared_checker.check_answer(answer, gold)
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.reward == 1


@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("3 or 4", "4", Grade.REJECTED, "more than one answer"),
        ("2+2=5", "5", Grade.REJECTED, "equation"),
        ("3!", "3", Grade.REJECTED, "Factorials"),
        ("1e6", "1", Grade.INCORRECT, "doesn't match"),
        ("- 3", "3", Grade.INCORRECT, "doesn't match"),
        ("3.14", "pi", Grade.INCORRECT, "not exact"),
        ("0.333", "1/3", Grade.INCORRECT, "not exact"),
        ("2/3", "3/4", Grade.INCORRECT, "doesn't match"),
        ("x", "3", Grade.INCORRECT, "doesn't match"),
    ],
)
async def test_different_answers_earn_nothing(
    shared_checker: Checker, answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    verdict = await shared_checker.check_answer(answer, gold)
    assert verdict.outcome is outcome, verdict
    assert verdict.reward == 0
    assert reason in verdict.reason


async def test_verdict_shows_what_was_read(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("x = 3", "3.0")
    assert (verdict.read, verdict.gold) == ("3", "3")


async def test_hedge_reason_quotes_the_answer(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("3 or 4", "4")
    assert verdict.reason == "That looks like more than one answer (3 or 4); give just one."


async def test_minus_three_reads_as_negative(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("- 3", "3")
    assert verdict.read == "-3"


async def test_an_unreadable_gold_is_blamed_on_the_lesson(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("3", "three")
    assert verdict.outcome is Grade.REJECTED
    assert "problem with the lesson" in verdict.reason
