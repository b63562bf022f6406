"""Answers in words: text golds with accepted spellings, number words, and bold lead-ins."""

from __future__ import annotations

import pytest

from bot.verifier import Checker, Grade
from bot.verifier.cli import verify_command
from bot.verifier.grading import grade_answer, grade_attempt, grade_gold


def _verdict_is(answer: str, gold: str, outcome: Grade, accept: tuple[str, ...] = ()) -> str:
    verdict = grade_answer(answer, gold, accept=accept)
    assert verdict.outcome is outcome, verdict
    assert verdict.reward == (outcome is Grade.CORRECT)
    return verdict.reason


@pytest.mark.parametrize(
    ("gold", "shown"),
    [("odd", "odd"), ("Odd", "odd"), ("\\text{odd}", "odd"), ("\\textbf{Yes}", "yes"),
     ("yes", "yes"), ("no", "no"), ("  even.  ", "even"), ("\\mathrm{none}", "none"),
     ("the same", "the same"), ("don't know", "don't know"), ("north-east", "north-east"),
     ("one-to-one", "one-to-one"), ("one or two", "one or two")],
)
def test_text_golds_are_read_as_normalised_words(gold: str, shown: str) -> None:
    verdict = grade_gold(gold)
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.read == shown


@pytest.mark.parametrize(
    ("gold", "reading"),
    [("x", "x"), ("pi", "pi"), ("sqrt 2", "sqrt(2)"), ("2x", "2*x")],
)
def test_maths_written_with_letters_stays_maths(gold: str, reading: str) -> None:
    assert grade_gold(gold).read == reading


@pytest.mark.parametrize(
    ("gold", "reason"),
    [("twenty", "word 'twenty'"), ("three", "word 'three'"),
     ("twenty-one", "word 'twenty-one' as the number 21"), ("A Thousand", "number 1000"),
     ("3 apples", "word 'apples'"), ("odd!", "word 'odd'"), ("", "no answer")],
)
def test_golds_in_words_that_are_numbers_or_not_words_are_refused(gold: str, reason: str) -> None:
    verdict = grade_gold(gold)
    assert verdict.outcome is Grade.REJECTED
    assert reason in verdict.reason, verdict


@pytest.mark.parametrize(
    "answer",
    ["odd", "Odd", "ODD", " odd ", "odd.", "\\text{odd}", "\\text{ Odd }", "$\\text{odd}$",
     "\\boxed{\\text{odd}}", "\\boxed{odd}", "**odd**", "Final answer: odd", "Answer: ODD.",
     "The answer is odd.", "**Final answer:** odd", "'odd'", "\"odd\"", "\\textbf{odd}"],
)
def test_a_text_answer_is_compared_by_normalised_text(answer: str) -> None:
    _verdict_is(answer, "\\text{odd}", Grade.CORRECT)


@pytest.mark.parametrize(
    ("answer", "outcome", "reason"),
    [
        ("even", Grade.INCORRECT, "I read 'even', which isn't one of the accepted answers"),
        ("od", Grade.INCORRECT, "isn't one of the accepted"),
        ("odds", Grade.INCORRECT, "isn't one of the accepted"),
        ("3", Grade.INCORRECT, "I read '3'"),
        ("odd or even", Grade.REJECTED, "type just one answer"),
        ("even or odd", Grade.REJECTED, "type just one answer"),
        ("odd, even", Grade.REJECTED, "type just one answer"),
        ("odd/even", Grade.REJECTED, "type just one answer"),
        ("it is not odd", Grade.REJECTED, "type just one answer"),
        ("not odd", Grade.REJECTED, "type just one answer"),
        ("odd and even", Grade.REJECTED, "type just one answer"),
        ("", Grade.REJECTED, "no answer"),
        ("Final answer:", Grade.REJECTED, "no answer"),
        ("\u202eodd", Grade.REJECTED, "text-direction"),
        ("\\boxed{odd", Grade.REJECTED, "isn't closed"),
    ],
)
def test_other_words_hedges_and_sentences_earn_nothing(
    answer: str, outcome: Grade, reason: str
) -> None:
    assert reason in _verdict_is(answer, "odd", outcome)


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [("yes", Grade.CORRECT), ("Yes.", Grade.CORRECT), ("y", Grade.CORRECT),
     ("yep", Grade.CORRECT), ("TRUE", Grade.CORRECT), ("no", Grade.INCORRECT),
     ("yes or no", Grade.REJECTED), ("maybe", Grade.INCORRECT)],
)
def test_accepted_spellings_from_the_lesson_count_as_the_gold(
    answer: str, outcome: Grade
) -> None:
    _verdict_is(answer, "yes", outcome, accept=("y", "Yep", "\\text{true}"))


def test_accepted_spellings_are_refused_on_a_maths_gold() -> None:
    verdict = grade_gold("3", accept=("three",))
    assert verdict.outcome is Grade.REJECTED
    assert "for an answer in words" in verdict.reason
    reason = _verdict_is("3", "3", Grade.REJECTED, accept=("three",))
    assert "problem with the lesson" in reason


def test_an_empty_accepted_spelling_is_refused() -> None:
    verdict = grade_gold("odd", accept=("  ",))
    assert verdict.outcome is Grade.REJECTED
    assert "empty" in verdict.reason


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("zero", "0"), ("one", "1"), ("three", "3"), ("Three", "3"), ("THREE", "3"),
        ("seven.", "7"), ("eleven", "11"), ("nineteen", "19"), ("twenty", "20"),
        ("twenty-one", "21"), ("twenty one", "21"), ("Twenty-One", "21"), ("ninety-nine", "99"),
        ("forty two", "42"), ("one hundred", "100"), ("a hundred", "100"),
        ("one hundred and five", "105"), ("one hundred five", "105"),
        ("a hundred and one", "101"), ("two hundred and fifty", "250"),
        ("nine hundred and ninety-nine", "999"), ("a thousand", "1000"),
        ("one thousand", "1000"), ("Final answer: three", "3"), ("The answer is twenty.", "20"),
        ("x = three", "3"), ("\\boxed{three}", "3"), ("-three", "-3"), ("three/four", "3/4"),
        ("three percent", "3/100"), ("**Answer:** twenty", "20"),
    ],
)
def test_number_words_up_to_a_thousand_read_as_numbers(answer: str, gold: str) -> None:
    _verdict_is(answer, gold, Grade.CORRECT)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("four", "3", Grade.INCORRECT, "I read 4"),
        ("thirty", "13", Grade.INCORRECT, "I read 30"),
        ("three or four", "3", Grade.REJECTED, "more than one answer"),
        ("three and four", "3", Grade.REJECTED, "more than one answer"),
        ("two thousand", "2000", Grade.REJECTED, "from zero to a thousand"),
        ("thousand", "1000", Grade.REJECTED, "from zero to a thousand"),
        ("hundred", "100", Grade.REJECTED, "from zero to a thousand"),
        ("a million", "1000000", Grade.REJECTED, "word 'million'"),
        ("threee", "3", Grade.REJECTED, "word 'threee'"),
        ("twentyone", "21", Grade.REJECTED, "word 'twentyone'"),
        ("three apples", "3", Grade.REJECTED, "word 'apples'"),
        ("minus three", "-3", Grade.REJECTED, "word 'minus'"),
        ("one halfway", "1/2", Grade.REJECTED, "word 'halfway'"),
        ("3one", "31", Grade.REJECTED, "word 'one'"),
        ("one2", "12", Grade.REJECTED, "word 'one'"),
        ("one.5", "1.5", Grade.REJECTED, "word 'one'"),
        ("2.five", "2.5", Grade.REJECTED, "'.' isn't part"),
    ],
)
def test_number_words_are_never_guessed(
    answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    assert reason in _verdict_is(answer, gold, outcome)


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("**Final answer:** 3", "3"),
        ("**Answer:** 3/4", "3/4"),
        ("**Final answer**: 3", "3"),
        ("__Answer:__ 3/4", "3/4"),
        ("**The answer is** 20", "20"),
        ("**Final answer: 3/4**", "3/4"),
        ("Final answer: **3/4**", "3/4"),
        ("**3/4**", "3/4"),
        ("**Final answer:** \\boxed{3/4}", "3/4"),
        ("**Final answer:** 75%", "3/4"),
        ("**Final answer:** 3/4.", "3/4"),
    ],
)
def test_a_bold_lead_in_is_accepted_like_a_plain_one(answer: str, gold: str) -> None:
    _verdict_is(answer, gold, Grade.CORRECT)


@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [
        ("**Final answer:** 3 or 4", "4", Grade.REJECTED),
        ("**Final answer:** 2+2=5", "5", Grade.REJECTED),
        ("**Answer:** 0.333", "1/3", Grade.INCORRECT),
        ("**Final answer** 3 or 4", "3", Grade.REJECTED),
        ("**Final answer:**", "3", Grade.REJECTED),
        ("** 3", "3", Grade.REJECTED),
        ("**3", "3", Grade.REJECTED),
        ("**My answer:** 3", "3", Grade.REJECTED),
    ],
)
def test_a_bold_lead_in_changes_no_grade(answer: str, gold: str, outcome: Grade) -> None:
    _verdict_is(answer, gold, outcome)


@pytest.mark.parametrize(
    ("attempt", "outcome"),
    [
        ("So n is \\boxed{\\text{odd}}.", Grade.CORRECT),
        ("So n is \\boxed{\\text{even}}.", Grade.INCORRECT),
        ("n = 2k + 1. The answer is odd.", Grade.CORRECT),
        ("n = 2k + 1, so the answer is: Odd", Grade.CORRECT),
        ("**Final answer:** odd", Grade.CORRECT),
        ("It could be anything. The answer is even.", Grade.INCORRECT),
        ("The answer is odd or even.", Grade.REJECTED),
        ("n is odd.", Grade.REJECTED),
    ],
)
def test_an_attempt_states_a_text_answer_after_the_answer_is_or_in_a_box(
    attempt: str, outcome: Grade
) -> None:
    assert grade_attempt(attempt, "odd").outcome is outcome


pytestmark_worker = pytest.mark.asyncio(loop_scope="module")


@pytestmark_worker
@pytest.mark.parametrize(
    ("answer", "accept", "outcome"),
    [("Odd.", (), Grade.CORRECT), ("uneven", ("uneven",), Grade.CORRECT),
     ("uneven", (), Grade.INCORRECT), ("odd or even", (), Grade.REJECTED)],
)
async def test_text_answers_through_the_worker(
    shared_checker: Checker, answer: str, accept: tuple[str, ...], outcome: Grade
) -> None:
    verdict = await shared_checker.check_answer(answer, "\\text{odd}", accept=accept)
    assert verdict.outcome is outcome, verdict


@pytestmark_worker
async def test_the_worker_reads_a_text_gold_and_refuses_spellings_on_maths(
    shared_checker: Checker,
) -> None:
    assert await shared_checker.read_gold("\\text{Odd}", accept=["uneven"]) == "odd"
    with pytest.raises(ValueError, match="for an answer in words"):
        await shared_checker.read_gold("3", accept=["three"])


@pytestmark_worker
async def test_number_words_through_the_worker(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("three", "3")
    assert (verdict.outcome, verdict.read) == (Grade.CORRECT, "3")


@pytestmark_worker
async def test_too_many_accepted_spellings_are_refused_before_the_worker(
    shared_checker: Checker,
) -> None:
    verdict = await shared_checker.check_answer("odd", "odd", accept=["x"] * 21)
    assert verdict.outcome is Grade.REJECTED
    assert "problem with the lesson" in verdict.reason


@pytestmark_worker
async def test_too_many_accepted_spellings_make_the_gold_unreadable(
    shared_checker: Checker,
) -> None:
    with pytest.raises(ValueError, match="at most 20 accepted spellings"):
        await shared_checker.read_gold("odd", accept=["x"] * 21)


def test_verify_takes_accepted_spellings_and_reads_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_command("Uneven.", "\\text{odd}", accept=["uneven"]) == 0
    assert verify_command("uneven", "odd") == 1
    assert verify_command("x = 3 or x = -3", "\\pm 3") == 0
    printed = capsys.readouterr().out
    assert "read:    uneven\ngold:    odd\nverdict: correct (reward 1)" in printed
    assert "read:    {3, -3}" in printed
