"""Answers with several values: sets, ± forms, ordered tuples, intervals and inequalities."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.verifier import Checker, Grade
from bot.verifier.grading import grade_answer, grade_attempt, grade_gold


def _assert_correct(answer: str, gold: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.reward == 1


def _assert_outcome(answer: str, gold: str, outcome: Grade, reason: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is outcome, verdict
    assert reason in verdict.reason, verdict
    assert verdict.reward == 0


@pytest.mark.parametrize(
    ("gold", "shown"),
    [
        ("{1,2}", "{1, 2}"),
        ("\\{1, 2\\}", "{1, 2}"),
        ("\\left\\{ -1, \\frac{1}{2} \\right\\}", "{-1, 1/2}"),
        ("{5}", "{5}"),
        ("\\pm 3", "{3, -3}"),
        ("x = \\pm 3", "{3, -3}"),
        ("1 \\pm \\sqrt{2}", "{1 + sqrt(2), 1 - sqrt(2)}"),
        ("\\frac{1 \\pm \\sqrt{5}}{2}", "{1/2 + sqrt(5)/2, 1/2 - sqrt(5)/2}"),
        ("±2", "{2, -2}"),
        ("x \\in \\{0, 1\\}", "{0, 1}"),
        ("\\boxed{\\{2, 3\\}}", "{2, 3}"),
        ("(3, 2)", "(3, 2)"),
        ("(1, \\frac{9}{2})", "(1, 9/2)"),
        ("(1, 2)", "(1, 2)"),
        ("(0, 0, 1)", "(0, 0, 1)"),
        ("\\left(-1, 2\\right)", "(-1, 2)"),
        ("[0, 1)", "[0, 1)"),
        ("[0, 1]", "[0, 1]"),
        ("(0, 1]", "(0, 1]"),
        ("(1, \\infty)", "(1, ∞)"),
        ("(-\\infty, 2]", "(-∞, 2]"),
        ("(-\\infty, \\infty)", "(-∞, ∞)"),
        ("[\\frac{1}{2}, \\pi)", "[1/2, pi)"),
        ("x \\in [0, 1)", "[0, 1)"),
        ("x \\le 5", "x ≤ 5"),
        ("x > 1", "1 < x"),
        ("5 \\ge x", "x ≤ 5"),
        ("1 < x \\le 3", "1 < x ≤ 3"),
        ("t \\geq -2", "-2 ≤ t"),
        ("1, 2, 3", "{1, 2, 3}"),
        ("-1; 4", "{-1, 4}"),
        ("x = -1, x = 4", "{-1, 4}"),
    ],
)
def test_every_kind_of_gold_with_several_values_is_read(gold: str, shown: str) -> None:
    verdict = grade_gold(gold)
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.read == shown


@pytest.mark.parametrize(
    ("gold", "reason"),
    [
        ("3 or 4", "more than one answer"),
        ("3 and 4", "{3, 4} for a set, (3, 4) for a point"),
        ("1,5", "must say what kind it is"),
        ("1,5, 2", "must say what kind it is"),
        ("x = 1 or x = 2", "must say what kind it is"),
        ("{1,000, 2}", "without thousands commas"),
        ("[5, 1]", "left end must be below its right end"),
        ("5 < x < 1", "left end must be below its right end"),
        ("[0, \\infty]", "never included"),
        ("(\\infty, 0)", "from its lower end"),
        ("[1, 2, 3]", "two ends"),
        ("x < y", "bounds of an inequality must be numbers"),
        ("1 < x > 2", "inequality in one letter"),
        ("{1, 2", "never closed"),
        ("{1, 2)", "must be closed by '}'"),
        ("(x = 1, 2)", "without naming them"),
        ("\\infty", "Infinity"),
        ("{1, \\infty}", "end of an interval"),
    ],
)
def test_golds_that_do_not_say_what_they_are_are_refused(gold: str, reason: str) -> None:
    verdict = grade_gold(gold)
    assert verdict.outcome is Grade.REJECTED
    assert reason in verdict.reason, verdict


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("3, -3", "\\pm 3"),
        ("{-3, 3}", "\\pm 3"),
        ("x = 3 or x = -3", "\\pm 3"),
        ("3 and -3", "\\pm 3"),
        ("\\pm 3", "\\pm 3"),
        ("±3", "\\pm 3"),
        ("+-3", "\\pm 3"),
        ("+/-3", "\\pm 3"),
        ("x = \\pm 3", "\\pm 3"),
        ("-3; 3", "\\pm 3"),
        ("3 or -3", "\\pm 3"),
        ("x=3, x=-3", "\\pm 3"),
        ("x = 3 \\text{ or } x = -3", "\\pm 3"),
        ("x = 3 \\quad\\text{or}\\quad x = -3", "\\pm 3"),
        ("x = 3 \\lor x = -3", "\\pm 3"),
        ("\\sqrt{9}, -\\sqrt{9}", "\\pm 3"),
        ("\\{3,-3\\}", "\\pm 3"),
        ("1, 2", "{1,2}"),
        ("1,2", "{1,2}"),
        ("2, 1", "{1,2}"),
        ("1 and 2", "{1,2}"),
        ("x=1 or x=2", "{1,2}"),
        ("{2, 1}", "{1,2}"),
        ("1; 2", "{1,2}"),
        ("1, 2, 2", "{1,2}"),
        ("1.0, 2.0", "{1,2}"),
        ("\\frac{2}{2}, 4/2", "{1,2}"),
        ("Final answer: 1, 2", "{1,2}"),
        ("The answer is 1 and 2.", "{1,2}"),
        ("**Answer:** {1, 2}", "{1,2}"),
        ("\\boxed{1, 2}", "{1,2}"),
        ("$\\{1, 2\\}$", "{1,2}"),
        ("x \\in \\{1, 2\\}", "{1,2}"),
        ("one and two", "{1,2}"),
        ("5", "{5}"),
        ("x = 5", "{5}"),
        ("1 + \\sqrt{2}, 1 - \\sqrt{2}", "1 \\pm \\sqrt{2}"),
        ("1 \\pm \\sqrt{2}", "1 \\pm \\sqrt{2}"),
        ("x = 1 \\pm \\sqrt 2", "1 \\pm \\sqrt{2}"),
        ("(1 - sqrt(2)), (1 + sqrt(2))", "1 \\pm \\sqrt{2}"),
        ("\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}", "\\frac{1 \\pm \\sqrt{5}}{2}"),
        ("1, 1000", "{1, 1000}"),
        ("1, 1 000", "{1, 1000}"),
        ("1, a thousand", "{1, 1000}"),
        ("3, 2, 1", "1, 2, 3"),
        ("\\{1, 2, 3\\}", "1, 2, 3"),
        ("x = 4 or x = -1", "-1, 4"),
    ],
)
def test_sets_compare_as_sets_whatever_the_order_or_form(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("3", "\\pm 3", Grade.INCORRECT, "1 value, but the answer has 2 values"),
        ("-3", "\\pm 3", Grade.INCORRECT, "1 value, but the answer has 2 values"),
        ("3, -3, 0", "\\pm 3", Grade.INCORRECT, "3 values, but the answer has 2"),
        ("3, 4", "\\pm 3", Grade.INCORRECT, "doesn't match"),
        ("1, 3", "{1,2}", Grade.INCORRECT, "doesn't match"),
        ("1, 2.001", "{1,2}", Grade.INCORRECT, "checked exactly"),
        ("0.333, 1", "{1/3, 1}", Grade.INCORRECT, "checked exactly"),
        ("1.41, -1.41", "\\pm \\sqrt{2}", Grade.INCORRECT, "checked exactly"),
        ("1 or 2", "{3}", Grade.INCORRECT, "2 values, but the answer has 1 value"),
        ("(3, -3)", "\\pm 3", Grade.REJECTED, "looks like a point"),
        ("[3, -3]", "\\pm 3", Grade.REJECTED, "as a list"),
        ("x = 3 or y = -3", "\\pm 3", Grade.REJECTED, "different letters"),
        ("{1,2} or {1,3}", "{1,2}", Grade.REJECTED, "more than one answer"),
        ("{1, 2}, {3}", "{1,2}", Grade.REJECTED, "more than one answer"),
        ("x^2 = 1, 2", "{1,2}", Grade.REJECTED, "equation"),
        ("1 = 2", "{1,2}", Grade.REJECTED, "equation"),
        ("1, , 2", "{1,2}", Grade.REJECTED, "missing between the commas"),
        ("{}", "{1,2}", Grade.REJECTED, "no answer"),
        ("", "{1,2}", Grade.REJECTED, "no answer"),
        ("1, apples", "{1,2}", Grade.REJECTED, "word 'apples'"),
        ("1, \\infty", "{1,2}", Grade.REJECTED, "end of an interval"),
        ("1 < 2", "{1,2}", Grade.REJECTED, "didn't expect '<'"),
        ("1, 2!", "{1,2}", Grade.REJECTED, "Factorials"),
        ("1, 1/0", "{1,2}", Grade.REJECTED, "divides by zero"),
        ("1, 2^100000", "{1,2}", Grade.REJECTED, "too big"),
        (", ".join(["1"] * 21), "{1,2}", Grade.REJECTED, "too many values"),
    ],
)
def test_sets_that_differ_or_cannot_be_read_earn_nothing(
    answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    _assert_outcome(answer, gold, outcome, reason)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("(3, 2)", "(3, 2)"),
        ("(3,2)", "(3, 2)"),
        ("( 3 , 2 )", "(3, 2)"),
        ("3, 2", "(3, 2)"),
        ("\\left(3, 2\\right)", "(3, 2)"),
        ("(3.0, 2)", "(3, 2)"),
        ("(6/2, \\sqrt{4})", "(3, 2)"),
        ("Final answer: (3, 2)", "(3, 2)"),
        ("\\boxed{(3, 2)}", "(3, 2)"),
        ("(3, 2).", "(3, 2)"),
        ("(three, two)", "(3, 2)"),
        ("(1, 4.5)", "(1, \\frac{9}{2})"),
        ("(1, 9/2)", "(1, \\frac{9}{2})"),
        ("(1, \\frac92)", "(1, \\frac{9}{2})"),
        ("(1, \\dfrac{9}{2})", "(1, \\frac{9}{2})"),
        ("(-1, 2)", "\\left(-1, 2\\right)"),
        ("(0, 0, 1)", "(0, 0, 1)"),
        ("(1, 2)", "(1, 2)"),
        ("(2x, x^2)", "(2x, x^2)"),
    ],
)
def test_tuples_and_points_compare_in_order(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("(2, 3)", "(3, 2)", Grade.INCORRECT, "not in the right order"),
        ("(3, 3)", "(3, 2)", Grade.INCORRECT, "doesn't match"),
        ("(3, 2, 1)", "(3, 2)", Grade.INCORRECT, "3 coordinates; the answer has 2"),
        ("3", "(3, 2)", Grade.INCORRECT, "1 coordinate;"),
        ("(3, 2.01)", "(3, 2)", Grade.INCORRECT, "checked exactly"),
        ("(1, 4.49)", "(1, \\frac{9}{2})", Grade.INCORRECT, "checked exactly"),
        ("{3, 2}", "(3, 2)", Grade.REJECTED, "order matters"),
        ("[3, 2]", "(3, 2)", Grade.REJECTED, "order matters"),
        ("(3, 2) or (2, 3)", "(3, 2)", Grade.REJECTED, "more than one answer"),
        ("3 and 2", "(3, 2)", Grade.REJECTED, "more than one answer"),
        ("3; 2", "(3, 2)", Grade.REJECTED, "more than one answer"),
        ("x = 3, y = 2", "(3, 2)", Grade.REJECTED, "without naming them"),
        ("P = (3, 2)", "(3, 2)", Grade.REJECTED, "without naming them"),
        ("(\\pm 3, 2)", "(3, 2)", Grade.REJECTED, "± gives two answers"),
        ("(3, \\infty)", "(3, 2)", Grade.REJECTED, "end of an interval"),
        ("(3, 2", "(3, 2)", Grade.REJECTED, "never closed"),
        ("(3, 2))", "(3, 2)", Grade.REJECTED, "without a matching"),
    ],
)
def test_tuples_out_of_order_or_in_the_wrong_brackets_earn_nothing(
    answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    _assert_outcome(answer, gold, outcome, reason)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("[0, 1)", "[0, 1)"),
        ("[0,1)", "[0, 1)"),
        ("\\left[0, 1\\right)", "[0, 1)"),
        ("[0.0, 1)", "[0, 1)"),
        ("[0, \\frac{2}{2})", "[0, 1)"),
        ("x \\in [0, 1)", "[0, 1)"),
        ("0 \\le x < 1", "[0, 1)"),
        ("0 <= x < 1", "[0, 1)"),
        ("0 ≤ x < 1", "[0, 1)"),
        ("1 > x \\geq 0", "[0, 1)"),
        ("Final answer: [0, 1)", "[0, 1)"),
        ("(1, \\infty)", "(1, \\infty)"),
        ("(1, ∞)", "(1, \\infty)"),
        ("(1, +\\infty)", "(1, \\infty)"),
        ("(1, oo)", "(1, \\infty)"),
        ("(1, inf)", "(1, \\infty)"),
        ("(1, infinity)", "(1, \\infty)"),
        ("x > 1", "(1, \\infty)"),
        ("1 < x", "(1, \\infty)"),
        ("x \\gt 1", "(1, \\infty)"),
        ("x > 1.0", "(1, \\infty)"),
        ("(-\\infty, 2]", "(-\\infty, 2]"),
        ("(-∞, 2]", "(-\\infty, 2]"),
        ("x \\le 2", "(-\\infty, 2]"),
        ("2 \\ge x", "(-\\infty, 2]"),
        ("x \\le 5", "x \\le 5"),
        ("5 \\ge x", "x \\le 5"),
        ("x <= 5", "x \\le 5"),
        ("5 >= x", "x \\le 5"),
        ("x \\leq 5", "x \\le 5"),
        ("x \\leqslant 5", "x \\le 5"),
        ("x ≤ 5", "x \\le 5"),
        ("x ⩽ 5", "x \\le 5"),
        ("(-\\infty, 5]", "x \\le 5"),
        ("x \\in (-\\infty, 5]", "x \\le 5"),
        ("x \\le five", "x \\le 5"),
        ("x > 1", "x > 1"),
        ("1 < x", "x > 1"),
        ("(1, 2)", "1 < x < 2"),
        ("2 > x > 1", "1 < x < 2"),
        ("(-\\infty, \\infty)", "(-\\infty, \\infty)"),
        ("x > 1 and x \\le 3", "1 < x \\le 3"),
        ("x \\le 3 and x > 1", "(1, 3]"),
        ("1 < x and x \\le 3", "(1, 3]"),
        ("1 < x \\le 3", "x > 1 and x \\le 3"),
    ],
)
def test_intervals_and_inequalities_compare_exactly(answer: str, gold: str) -> None:
    _assert_correct(answer, gold)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("(0, 1)", "[0, 1)", Grade.INCORRECT, "check which ends are included"),
        ("[0, 1]", "[0, 1)", Grade.INCORRECT, "check which ends are included"),
        ("0 < x < 1", "[0, 1)", Grade.INCORRECT, "check which ends are included"),
        ("[1, \\infty)", "(1, \\infty)", Grade.INCORRECT, "check which ends are included"),
        ("x \\ge 1", "(1, \\infty)", Grade.INCORRECT, "check which ends are included"),
        ("x < 5", "x \\le 5", Grade.INCORRECT, "check which ends are included"),
        ("x \\ge 5", "x \\le 5", Grade.INCORRECT, "doesn't match"),
        ("[0, 2)", "[0, 1)", Grade.INCORRECT, "doesn't match"),
        ("(2, \\infty)", "(1, \\infty)", Grade.INCORRECT, "doesn't match"),
        ("(-\\infty, 1)", "(1, \\infty)", Grade.INCORRECT, "doesn't match"),
        ("x \\le 5.001", "x \\le 5", Grade.INCORRECT, "doesn't match"),
        ("y \\le 5", "x \\le 5", Grade.REJECTED, "inequality in y, but the answer is about x"),
        ("0.5", "[0, 1)", Grade.REJECTED, "range of values"),
        ("{0, 1}", "[0, 1)", Grade.REJECTED, "range of values"),
        ("[0, 1) or [2, 3)", "[0, 1)", Grade.REJECTED, "more than one answer"),
        ("x > 1 or x < 0", "(1, \\infty)", Grade.REJECTED, "inequality in one letter"),
        ("(1, \\infty]", "(1, \\infty)", Grade.REJECTED, "never included"),
        ("[-\\infty, 2]", "(-\\infty, 2]", Grade.REJECTED, "never included"),
        ("x < y", "x \\le 5", Grade.REJECTED, "must be numbers"),
        ("1 < x > 0", "x > 1", Grade.REJECTED, "inequality in one letter"),
        ("x = 5", "x \\le 5", Grade.REJECTED, "range of values"),
        ("(0; 1)", "(0, 1]", Grade.REJECTED, "more than one answer"),
        ("[0, 1, 2)", "[0, 1)", Grade.REJECTED, "range of values"),
        ("[0, 1/0)", "[0, 1)", Grade.REJECTED, "divides by zero"),
        ("x > 1 and x > 3", "(1, 3]", Grade.REJECTED, "a lower and an upper bound"),
        ("x > 1 and y \\le 3", "(1, 3]", Grade.REJECTED, "a lower and an upper bound"),
        ("x > 1 and x < 3 and x < 4", "(1, 3]", Grade.REJECTED, "inequality in one letter"),
        ("x \\ge 1 and x < 3", "(1, 3]", Grade.INCORRECT, "check which ends"),
    ],
)
def test_intervals_that_differ_or_cannot_be_read_earn_nothing(
    answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    _assert_outcome(answer, gold, outcome, reason)


def test_an_ambiguous_gold_pair_is_a_point_not_an_open_interval() -> None:
    assert grade_gold("(1, 2)").read == "(1, 2)"
    _assert_outcome("1 < x < 2", "(1, 2)", Grade.REJECTED, "didn't expect '<'")
    _assert_outcome("(2, 1)", "(1, 2)", Grade.INCORRECT, "not in the right order")


def test_an_open_interval_gold_reads_a_members_pair_as_that_interval() -> None:
    _assert_correct("(1, 2)", "1 < x < 2")
    _assert_outcome("(2, 1)", "1 < x < 2", Grade.INCORRECT, "doesn't match")


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("3 or 4", "4"), ("3, 4", "4"), ("3 and 4", "4"), ("\\pm 4", "4"), ("{3, 4}", "4"),
     ("(3, 4)", "4"), ("x = 3 or x = 4", "4"), ("[3, 4]", "4"), ("x \\le 4", "4"),
     ("three or four", "4"), ("4 or 4.5", "4")],
)
def test_a_hedge_against_a_single_value_still_earns_nothing(answer: str, gold: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert verdict.reward == 0


@pytest.mark.parametrize(
    ("attempt", "gold", "outcome"),
    [
        ("So the roots are \\boxed{3, -3}.", "\\pm 3", Grade.CORRECT),
        ("So the roots are \\boxed{\\{3, -3\\}}.", "\\pm 3", Grade.CORRECT),
        ("So the only root is \\boxed{3}.", "\\pm 3", Grade.INCORRECT),
        ("The point is \\boxed{(3, 2)}.", "(3, 2)", Grade.CORRECT),
        ("The point is \\boxed{(2, 3)}.", "(3, 2)", Grade.INCORRECT),
        ("Hence \\boxed{x \\le 5}.", "5 \\ge x", Grade.CORRECT),
        ("Hence \\boxed{[0, 1)}.", "[0, 1)", Grade.CORRECT),
        ("The answer is x = 3 or x = -3.", "\\pm 3", Grade.CORRECT),
        ("Both work, so the answer is 3 and -3", "\\pm 3", Grade.CORRECT),
        ("So x = 3. The answer is 3.", "\\pm 3", Grade.INCORRECT),
        ("We get x = 3 or x = -3, or maybe 4.", "\\pm 3", Grade.REJECTED),
        ("The answer is (3, 2).", "(3, 2)", Grade.CORRECT),
        ("**Final answer:** (2, 3)", "(3, 2)", Grade.INCORRECT),
        ("Thus the answer is [0, 1).", "[0, 1)", Grade.CORRECT),
        ("Thus the answer is x \\ge 0 and x < 1.", "[0, 1)", Grade.CORRECT),
        ("The answer is 1.5, 2.", "{1.5, 2}", Grade.CORRECT),
        ("The answer is 1,000.", "{1, 0}", Grade.REJECTED),
    ],
)
def test_attempts_are_graded_against_golds_with_several_values(
    attempt: str, gold: str, outcome: Grade
) -> None:
    assert grade_attempt(attempt, gold).outcome is outcome


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [("x = 3 or x = -3", "\\pm 3", Grade.CORRECT), ("(1, 4.5)", "(1, \\frac{9}{2})",
                                                       Grade.CORRECT),
     ("5 \\ge x", "x \\le 5", Grade.CORRECT), ("(2, 3)", "(3, 2)", Grade.INCORRECT),
     ("3 or 4", "4", Grade.REJECTED)],
)
async def test_answers_with_several_values_through_the_worker(
    shared_checker: Checker, answer: str, gold: str, outcome: Grade
) -> None:
    verdict = await shared_checker.check_answer(answer, gold)
    assert verdict.outcome is outcome, verdict


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(
    ("gold", "reading"),
    [("\\pm 3", "{3, -3}"), ("(3, 2)", "(3, 2)"), ("[0, 1)", "[0, 1)"), ("x \\le 5", "x ≤ 5")],
)
async def test_the_worker_reads_golds_with_several_values(
    shared_checker: Checker, gold: str, reading: str
) -> None:
    assert await shared_checker.read_gold(gold) == reading


@pytest.mark.parametrize(
    ("answer", "gold", "read", "reason"),
    [
        ("3", "\\pm 3", "{3}", "I read {3}: 1 value, but the answer has 2 values."),
        ("(2, 3)", "(3, 2)", "(2, 3)",
         "I read (2, 3): the values are right, but not in the right order."),
        ("(0, 1)", "[0, 1)", "(0, 1)",
         "I read (0, 1): the ends are right, but check which ends are included."),
        ("5 \\ge x", "x < 5", "x ≤ 5",
         "I read x ≤ 5: the ends are right, but check which ends are included."),
        ("{1,2} or {1,3}", "{1,2}", "{1,2} or {1,3}",
         "That looks like more than one answer ({1, 2} or {1, 3}); give just one."),
        ("1,000", "{1, 0}", "{1000}",
         "I can't tell what you meant: {1000} or {1, 0}? Put a space after each comma between "
         "values, write decimals with a point and large numbers without commas."),
    ],
)
def test_feedback_says_what_was_read_and_why_it_was_refused(
    answer: str, gold: str, read: str, reason: str
) -> None:
    verdict = grade_answer(answer, gold)
    assert (verdict.read, verdict.reason) == (read, reason)


@settings(max_examples=300, deadline=None)
@given(
    answer=st.text(alphabet="0123456789x+-,;()[]{}=<>.\\ leqgtinfyorandpm", max_size=30),
    gold=st.sampled_from(["\\pm 3", "(3, 2)", "[0, 1)", "x \\le 5", "odd", "{1, 1000}"]),
)
def test_any_answer_against_any_kind_of_gold_is_graded_or_refused_cleanly(
    answer: str, gold: str
) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.CORRECT or verdict.reason
