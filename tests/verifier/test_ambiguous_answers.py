"""No wrong verdicts: an answer that one plausible reading makes right is never graded wrong."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.verifier import Grade
from bot.verifier.grading import grade_answer

QUESTION = "I can't tell what you meant"


@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("1,000", "{1, 0}", "{1000} or {1, 0}"),
        ("1,000, 2", "{1, 0, 2}", "{1000, 2} or {1, 0, 2}"),
        ("2,500", "{2, 500}", "{2500} or {2, 500}"),
        ("2,500", "{2.5}", "{2500} or {5/2}"),
        ("1,5", "{1.5}", "{1, 5} or {3/2}"),
        ("1,5; 2", "{1.5, 2}", "{1, 5, 2} or {3/2, 2}"),
        ("(1, 4,5)", "(1, 4.5)", "(1, 4, 5) or (1, 9/2)"),
        ("(2,500, 1)", "(2.5, 1)", "(2500, 1) or (5/2, 1)"),
        ("(2,500, 1)", "(2, 500, 1)", "(2500, 1) or (2, 500, 1)"),
        ("one hundred and five", "{100, 5}", "{105} or {100, 5}"),
        ("x = one hundred and one", "{100, 1}", "{101} or {100, 1}"),
    ],
)
def test_an_answer_right_only_under_another_reading_is_asked_about(
    answer: str, gold: str, question: str
) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert f"{QUESTION}: {question}?" in verdict.reason
    assert verdict.reward == 0


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("1,000", "{1000}"), ("1,2", "{1, 2}"), ("1,000, 2", "{1000, 2}"),
     ("one hundred and five", "{105}"), ("(1,2)", "(1, 2)"), ("[1,000, 2000]", "[1000, 2000]")],
)
def test_the_usual_reading_of_a_comma_decides_when_it_is_right(answer: str, gold: str) -> None:
    assert grade_answer(answer, gold).outcome is Grade.CORRECT


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("1,000", "{7}"), ("(1, 4,5)", "(1, 4.6)"), ("one hundred and five", "{106}"),
     ("1,5", "{2}")],
)
def test_an_answer_wrong_under_every_reading_is_incorrect(answer: str, gold: str) -> None:
    assert grade_answer(answer, gold).outcome is Grade.INCORRECT


@pytest.mark.parametrize(
    ("answer", "gold"),
    [("2,500", "2.5"), ("0,500", "{0.5, 1}"), ("{0,250}", "{0.25}"), ("3 or 4", "4"),
     ("\\pm 4", "4"), ("1, 2", "2"), ("(1, 2)", "2"), ("1 and 2", "1")],
)
def test_ambiguous_or_hedged_answers_get_no_verdict(answer: str, gold: str) -> None:
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is Grade.REJECTED, verdict
    assert verdict.reason


_VALUES = st.lists(st.integers(min_value=0, max_value=2000), min_size=1, max_size=4)
_SEPARATORS = st.sampled_from([",", ", ", ";", "; ", " and ", " or ", " ,  "])


@settings(max_examples=300, deadline=None)
@given(values=_VALUES, separator=_SEPARATORS, braces=st.booleans(), order=st.randoms())
def test_a_list_of_the_golds_values_is_never_graded_wrong(
    values: list[int], separator: str, braces: bool, order: random.Random
) -> None:
    gold = "{" + ", ".join(str(value) for value in values) + "}"
    shuffled = list(values)
    order.shuffle(shuffled)
    answer = separator.join(str(value) for value in shuffled)
    verdict = grade_answer("{" + answer + "}" if braces else answer, gold)
    assert verdict.outcome is not Grade.INCORRECT, (answer, verdict)
    if verdict.outcome is Grade.REJECTED:
        assert QUESTION in verdict.reason or "did you mean" in verdict.reason, (answer, verdict)


@settings(max_examples=200, deadline=None)
@given(values=_VALUES, wrong=st.integers(min_value=2001, max_value=9999), separator=_SEPARATORS)
def test_a_list_missing_a_value_of_the_gold_is_never_graded_right(
    values: list[int], wrong: int, separator: str
) -> None:
    gold = "{" + ", ".join(str(value) for value in values) + "}"
    answer = separator.join(str(value) for value in [*values[1:], wrong])
    verdict = grade_answer(answer, gold)
    assert verdict.outcome is not Grade.CORRECT, (answer, verdict)
