"""Ways people write a single answer: lead-ins, number formats, LaTeX shorthand and percent."""

from __future__ import annotations

import re

import pytest
import sympy

from bot.verifier import Checker, Grade
from bot.verifier.errors import ReadError
from bot.verifier.grading import grade_answer, grade_attempt
from bot.verifier.reader import read_answer

pi = sympy.pi


def _assert_correct(answer: str, gold: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.CORRECT, verdict


def _assert_refused(answer: str, gold: str, reason: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert reason in verdict.reason, verdict


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("Final answer: 3/4", "3/4"),
        ("final answer: 3/4", "3/4"),
        ("FINAL ANSWER: 0.75", "3/4"),
        ("Final answer:3/4", "3/4"),
        ("Final answer is 3/4", "3/4"),
        ("Answer: 20", "20"),
        ("answer:20", "20"),
        ("ANSWER : 20", "20"),
        ("The answer is 20", "20"),
        ("the answer is 20.", "20"),
        ("The answer is: 20", "20"),
        ("The final answer is 20", "20"),
        ("  Final answer:  \\frac{3}{4}  ", "3/4"),
        ("Final answer: \\boxed{3/4}", "3/4"),
        ("Final answer: x = 3", "3"),
        ("Final answer: 75%", "3/4"),
        ("Final answer: 1,000.", "1000"),
        ("Final answer: 3/4.", "3/4"),
        ("3/4.", "3/4"),
        ("0.75.", "3/4"),
        ("20.", "20"),
        ("The answer is -2.", "-2"),
    ],
)
def test_lead_ins_and_a_full_stop_are_accepted(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold", "reason"),
    [
        ("Final answer: 3 or 4", "4", "more than one answer"),
        ("Answer: 2+2=5", "5", "equation"),
        ("The answer is 3, 4", "4", "more than one answer"),
        ("Final answer:", "3", "no answer"),
        ("The answer is.", "3", "no answer"),
        ("Final answer", "3", "word 'Final'"),
        ("answer", "3", "word 'answer'"),
        ("Final answer: 3 apples", "3", "word 'apples'"),
        ("Answer: Answer: 3", "3", "word 'Answer'"),
        ("3. Final answer", "3", "'.' isn't part"),
        ("answeris 3", "3", "word 'answeris'"),
        ("Finalanswer: 3", "3", "word 'Finalanswer'"),
        ("The answers: 3", "3", "word 'The'"),
    ],
)
def test_lead_ins_do_not_let_anything_else_through(answer: str, gold: str, reason: str) -> None:
    _assert_refused(answer, gold, reason)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("Final answer: 0.333", "1/3"),
        ("The answer is 21", "20"),
        ("Answer: 3/5", "3/4"),
    ],
)
def test_a_lead_in_does_not_change_the_grade(answer: str, gold: str) -> None:
    assert grade_answer(answer, gold).outcome is Grade.INCORRECT


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,000", 1000),
        ("1 000", 1000),
        ("1\\,000", 1000),
        ("14{,}916", 14916),
        ("1,000,000", 1_000_000),
        ("1 000 000", 1_000_000),
        ("1\\,000\\,000", 1_000_000),
        ("2{,}000{,}000", 2_000_000),
        ("12 345", 12345),
        ("123\\,456", 123456),
        ("1\u00a0000", 1000),
        ("1\u2009000", 1000),
        ("1\u202f000", 1000),
        ("1 000.5", sympy.Rational(2001, 2)),
        ("-1 000", -1000),
        ("$1\\,000$", 1000),
        ("2 000 + 1", 2001),
        ("1 000x", 1000 * sympy.Symbol("x")),
    ],
)
def test_thousands_separators_read_as_numbers(text: str, value: sympy.Expr) -> None:
    assert read_answer(text).value == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0,500", "did you mean 0.5 or 500?"),
        ("0 500", "did you mean 0.5 or 500?"),
        ("0\\,250", "did you mean 0.25 or 250?"),
        ("0{,}125", "did you mean 0.125 or 125?"),
        ("012,000", "did you mean 12 or 12000?"),
        ("0,000", "did you mean 0?"),
        ("1,000 000", "put an operator"),
        ("1\\,000,000", "more than one answer"),
        ("1,00", "decimal use a point"),
        ("1,0000", "decimal use a point"),
        ("1 00", "put an operator"),
        ("1 0000", "put an operator"),
        ("2 3", "put an operator"),
        ("3{,}14", "more than one answer"),
    ],
)
def test_malformed_or_leading_zero_groups_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ReadError, match=re.escape(reason)):
        read_answer(text)


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("2,500", "2.5", "did you mean 2.5 or 2500?"),
        ("2,500", "5/2", "did you mean 2.5 or 2500?"),
        ("2{,}500", "2.5", "did you mean 2.5 or 2500?"),
        ("1,250", "1.25", "did you mean 1.25 or 1250?"),
        ("3,141", "3.141", "did you mean 3.141 or 3141?"),
        ("1,000", "1", "did you mean 1 or 1000?"),
        ("-2,500", "-2.5", "did you mean -2.5 or -2500?"),
        ("Final answer: 2,500", "2.5", "did you mean 2.5 or 2500?"),
        ("2,500x", "2.5x", "did you mean"),
        ("0,500", "0.5", "did you mean 0.5 or 500?"),
        ("0,500", "500", "did you mean 0.5 or 500?"),
        ("0,750", "3/4", "did you mean 0.75 or 750?"),
    ],
)
def test_a_comma_that_could_be_a_decimal_point_is_asked_about(
    answer: str, gold: str, question: str
) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert question in verdict.reason
    assert verdict.reward == 0


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("2,500", "2500"),
        ("1,000", "1000"),
        ("14{,}916", "14916"),
        ("1 000", "1000"),
        ("1\\,000", "1000"),
        ("1,000,000", "10^6"),
        ("2,500.5", "2500.5"),
        ("2 500", "2500"),
    ],
)
def test_thousands_readings_that_match_the_gold_are_correct(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("2,500", "3"),
        ("2 500", "2.5"),
        ("2\\,500", "2.5"),
        ("1,000,000", "1"),
        ("2,500.5", "2.5005"),
    ],
)
def test_numbers_that_match_under_no_reading_are_incorrect(answer: str, gold: str) -> None:
    assert grade_answer(answer, gold).outcome is Grade.INCORRECT


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("\\frac12", sympy.Rational(1, 2)),
        ("\\frac 12", sympy.Rational(1, 2)),
        ("\\dfrac34", sympy.Rational(3, 4)),
        ("\\tfrac34", sympy.Rational(3, 4)),
        ("\\cfrac34", sympy.Rational(3, 4)),
        ("\\cfrac{1}{3}", sympy.Rational(1, 3)),
        ("\\cfrac{1}{1+\\cfrac{1}{2}}", sympy.Rational(2, 3)),
        ("\\frac94\\pi", sympy.Rational(9, 4) * pi),
        ("\\frac1{3}", sympy.Rational(1, 3)),
        ("\\frac{1}3", sympy.Rational(1, 3)),
        ("-\\frac12", sympy.Rational(-1, 2)),
        ("\\frac12 + \\frac13", sympy.Rational(5, 6)),
        ("\\left( \\frac12 \\right)^2", sympy.Rational(1, 4)),
        ("2\\left(3+1\\right)", 8),
        ("\\left[1+2\\right]", 3),
        ("3 \\cdot 4", 12),
        ("3\\cdot\\frac12", sympy.Rational(3, 2)),
        ("2 \\times 3 \\times 4", 24),
        ("12 \\div 8", sympy.Rational(3, 2)),
        ("1 \\div \\frac12", 2),
        ("\\frac{\\sqrt2}{2}", sympy.sqrt(2) / 2),
    ],
)
def test_latex_shorthand_reads_exactly(text: str, value: sympy.Expr) -> None:
    assert sympy.simplify(read_answer(text).value - value) == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("\\frac123", "braces"),
        ("\\frac1", "braces"),
        ("\\frac", "braces"),
        ("\\frac10", "divides by zero"),
        ("\\cfrac{1}", "braces"),
        ("\\frac1.5", "braces"),
        ("\\left(1+2", "never closed"),
        ("1 \\div 0", "divides by zero"),
        ("3 \\cdot", "stop too soon"),
        ("\\times 3", "missing before"),
        ("\\over", "LaTeX command \\over"),
    ],
)
def test_malformed_latex_shorthand_is_refused(text: str, reason: str) -> None:
    with pytest.raises(ReadError, match=re.escape(reason)):
        read_answer(text)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("75%", "3/4"),
        ("75%", "0.75"),
        ("75\\%", "3/4"),
        ("75 percent", "3/4"),
        ("75 Percent", "0.75"),
        ("75 PERCENT", "3/4"),
        ("75 pct", "3/4"),
        ("75pct", "0.75"),
        ("12.5%", "1/8"),
        ("100%", "1"),
        ("150 percent", "3/2"),
        ("Final answer: 75%", "3/4"),
        ("The answer is 75 percent.", "3/4"),
        ("75 per cent", "3/4"),
        ("75 percentage", "3/4"),
    ],
)
def test_percent_divides_by_one_hundred(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [
        ("75", "3/4", Grade.INCORRECT),
        ("0.75%", "3/4", Grade.INCORRECT),
        ("75%", "75", Grade.INCORRECT),
        ("33.3%", "1/3", Grade.INCORRECT),
        ("percent", "3/4", Grade.REJECTED),
        ("75 per cents", "3/4", Grade.REJECTED),
    ],
)
def test_percent_is_never_guessed(answer: str, gold: str, outcome: Grade) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is outcome, verdict


@pytest.mark.parametrize(
    ("attempt", "gold"),
    [
        ("So the chance is 75 percent.", "3/4"),
        ("So the chance is 75 PCT", "0.75"),
        ("Final answer: 3/4", "0.75"),
        ("The answer is 1 000.", "1000"),
        ("We end up with 1 000 dollars.", "1000"),
        ("We end up with 14{,}916 dollars.", "14916"),
        ("We end up with 2\\,000 dollars.", "2000"),
        ("The answer is \\frac12.", "1/2"),
    ],
)
def test_attempts_keep_percent_words_and_formats(attempt: str, gold: str) -> None:
    verdict = grade_attempt(attempt, gold)
    assert verdict.outcome is Grade.CORRECT, verdict


def test_an_attempt_ending_in_an_ambiguous_comma_is_asked_about() -> None:
    verdict = grade_attempt("The answer is 2,500.", "2.5")
    assert verdict.outcome is Grade.REJECTED
    assert "did you mean 2.5 or 2500?" in verdict.reason


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("answer", ["Final answer: 3/4", "0.75", "75%", "\\frac34", "75 percent"])
async def test_the_coin_problem_through_the_worker(shared_checker: Checker, answer: str) -> None:
    verdict = await shared_checker.check_answer(answer, "3/4")
    assert verdict.outcome is Grade.CORRECT, verdict


@pytest.mark.asyncio(loop_scope="module")
async def test_an_ambiguous_comma_through_the_worker(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("2,500", "2.5")
    assert verdict.outcome is Grade.REJECTED
    assert "did you mean 2.5 or 2500?" in verdict.reason
