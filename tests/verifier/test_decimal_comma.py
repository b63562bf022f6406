"""Answers in a language that writes a decimal comma (Spanish): 3,5 is 3.5, 1,234 is asked about."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import cli
from bot.verifier import Checker, Grade
from bot.verifier.grading import grade_answer
from bot.verifier.protocol import encode
from bot.verifier.worker import handle_request

WHOLE_OR_DECIMAL = "I can't tell whether that is a decimal or a whole number"
WRITE_IT_PLAINLY = ("Write whole numbers without a separator (1234) and decimals with a comma "
                    "(2,5).")
WHICH_VALUES = "I can't tell what you meant"
SEMICOLONS = "Separate the values with semicolons, like (1,5; 2)"
BRACKETS = "is several values or one number with a decimal comma"
ENGLISH_COMMA_HINT = "For a decimal use a point (1.5); for thousands write 1,000 or 1000."

SPANISH_RIGHT = [
    ("3,5", "3.5", "3,5"),
    ("-0,25", "-0.25", "-0,25"),
    ("0,5", "1/2", "0,5"),
    ("3,50", "7/2", "3,5"),
    ("0,500", "0.5", "0,5"),
    ("1234,567", "1234.567", "1234,567"),
    ("1.234,5", "1234.5", "1234,5"),
    ("1.234.567,25", "1234567.25", "1234567,25"),
    ("1 234,5", "1234.5", "1234,5"),
    ("1\\,234{,}5", "1234.5", "1234,5"),
    ("3{,}5", "3.5", "3,5"),
    ("\\boxed{2,5}", "5/2", "2,5"),
    ("Final answer: 2,5.", "5/2", "2,5"),
    ("x = 3,5", "3.5", "3,5"),
    ("1,5e3", "1500", "1500"),
    ("75,5%", "0.755", "0,755"),
    ("(1,5)^2", "2.25", "2,25"),
    ("\\frac{1,5}{3}", "1/2", "0,5"),
    ("1.234", "1.234", "1,234"),
    ("1.234.567", "1234567", "1234567"),
    ("1,234,567", "1234567", "1234567"),
    ("1,234.5", "1234.5", "1234,5"),
    ("1234", "1234", "1234"),
]

ON_THE_WORKER = pytest.mark.asyncio(loop_scope="module")


@ON_THE_WORKER
@pytest.mark.parametrize(("answer", "gold", "read"), SPANISH_RIGHT)
async def test_a_right_answer_written_with_a_decimal_comma_is_right_in_spanish(
    shared_checker: Checker, answer: str, gold: str, read: str
) -> None:
    verdict = await shared_checker.check_answer(answer, gold, language="es")
    assert verdict.outcome is Grade.CORRECT, verdict
    assert (verdict.read, verdict.reward) == (read, 1)


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold", "reason"),
    [
        ("3,5", "35", "I read 3,5, which doesn't match"),
        ("3,5", "3.6", "I read 3,5, which doesn't match"),
        ("-0,25", "0.25", "I read -0,25, which doesn't match"),
        ("1.234,5", "1.2345", "I read 1234,5, which doesn't match"),
        ("3,14", "pi", "Close, but not exact: 3,14"),
        ("1,234", "7", "I read 1,234, which doesn't match"),
        ("2,5x", "2.5", "I read a letter, 'x'"),
    ],
)
async def test_a_wrong_answer_with_a_decimal_comma_stays_wrong(
    shared_checker: Checker, answer: str, gold: str, reason: str
) -> None:
    verdict = await shared_checker.check_answer(answer, gold, language="es")
    assert verdict.outcome is not Grade.CORRECT, verdict
    assert verdict.reward == 0
    assert reason in verdict.reason


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("1,234", "1.234", "did you mean 1,234 or 1234?"),
        ("1,234", "1234", "did you mean 1,234 or 1234?"),
        ("2,500", "2.5", "did you mean 2,5 or 2500?"),
        ("2,500", "2500", "did you mean 2,5 or 2500?"),
        ("-2,500", "-2500", "did you mean -2,5 or -2500?"),
        ("14{,}916", "14916", "did you mean 14,916 or 14916?"),
        ("1.234", "1234", "did you mean 1,234 or 1234?"),
        ("Final answer: 10.000", "10000", "did you mean 10 or 10000?"),
    ],
)
async def test_a_number_spanish_writes_two_ways_is_asked_about_when_it_matters(
    shared_checker: Checker, answer: str, gold: str, question: str
) -> None:
    verdict = await shared_checker.check_answer(answer, gold, language="es")
    assert verdict.outcome is Grade.REJECTED, verdict
    assert verdict.reason == f"{WHOLE_OR_DECIMAL} with a thousands separator: {question} " + (
        WRITE_IT_PLAINLY)


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold"),
    [("1, 2", "{1, 2}"), ("1; 2", "{2, 1}"), ("(1, 2)", "(1, 2)"), ("[0, 1)", "[0, 1)"),
     ("x \\le 2", "x \\le 2"), ("\\pm 3", "\\pm 3")],
)
async def test_lists_written_with_a_comma_and_a_space_read_as_in_english(
    shared_checker: Checker, answer: str, gold: str
) -> None:
    spanish = await shared_checker.check_answer(answer, gold, language="es")
    english = await shared_checker.check_answer(answer, gold)
    assert spanish.outcome is Grade.CORRECT, spanish
    assert spanish == english


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold", "question"),
    [
        ("(1,2)", "(1, 2)", "(6/5) or (1, 2)?"),
        ("3,5", "{3, 5}", "{7/2} or {3, 5}?"),
        ("3,5", "{3.5}", "{7/2} or {3, 5}?"),
        ("(1,5, 2)", "(1.5, 2)", "(3/2, 2) or (1, 5, 2)?"),
        ("1,5, 2", "{1, 5, 2}", "{3/2, 2} or {1, 5, 2}?"),
        ("1,234; 2", "{1234, 2}", "{617/500, 2} or {1234, 2}?"),
    ],
)
async def test_a_comma_that_may_separate_values_is_asked_about_never_made_a_decimal(
    shared_checker: Checker, answer: str, gold: str, question: str
) -> None:
    verdict = await shared_checker.check_answer(answer, gold, language="es")
    assert verdict.outcome is Grade.REJECTED, verdict
    assert f"{WHICH_VALUES}: {question} {SEMICOLONS}" in verdict.reason


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold", "outcome"),
    [
        ("(1,5; 2)", "(1.5, 2)", Grade.CORRECT),
        ("(1,5; 2)", "(2, 1.5)", Grade.INCORRECT),
        ("{1,5; 2}", "{2, 1.5}", Grade.CORRECT),
        ("1,5; 2", "{1, 5, 2}", Grade.INCORRECT),
        ("[0; 1,5)", "[0, 1.5)", Grade.CORRECT),
        ("x \\in [0,5; 1]", "[0.5, 1]", Grade.CORRECT),
        ("\\pm 1,5", "\\pm 1.5", Grade.CORRECT),
        ("±0,5", "\\pm 1/2", Grade.CORRECT),
        ("[0,5, 1]", "[0.5, 1]", Grade.CORRECT),
        ("(1,2)", "[1, 2]", Grade.INCORRECT),
    ],
)
async def test_semicolons_or_a_plus_minus_settle_what_the_commas_are(
    shared_checker: Checker, answer: str, gold: str, outcome: Grade
) -> None:
    verdict = await shared_checker.check_answer(answer, gold, language="es")
    assert verdict.outcome is outcome, verdict


@ON_THE_WORKER
@pytest.mark.parametrize("answer", ["(1,2)", "[1,2]", "{1,2}", "\\left(1,2\\right)"])
async def test_a_decimal_comma_alone_in_brackets_is_refused_against_one_value(
    shared_checker: Checker, answer: str
) -> None:
    verdict = await shared_checker.check_answer(answer, "1.2", language="es")
    assert verdict.outcome is Grade.REJECTED, verdict
    assert BRACKETS in verdict.reason
    assert "write it without brackets" in verdict.reason


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("answer", "gold", "outcome", "reason"),
    [
        ("3,5", "3.5", Grade.REJECTED, f"more than one answer (3,5); give just one. "
                                       f"{ENGLISH_COMMA_HINT}"),
        ("-0,25", "-0.25", Grade.REJECTED, "more than one answer"),
        ("1.234,5", "1234.5", Grade.REJECTED, "more than one answer"),
        ("1,234", "1234", Grade.CORRECT, ""),
        ("2,500", "2.5", Grade.REJECTED, "did you mean 2.5 or 2500?"),
        ("1.234", "1234", Grade.INCORRECT, "I read 1.234"),
        ("(1,2)", "(1, 2)", Grade.CORRECT, ""),
        ("3,5", "{3, 5}", Grade.CORRECT, ""),
        ("(1,5; 2)", "(1.5, 2)", Grade.REJECTED, "Write a point as (3, 2)."),
    ],
)
async def test_english_reads_commas_as_it_always_has(
    shared_checker: Checker, answer: str, gold: str, outcome: Grade, reason: str
) -> None:
    default = await shared_checker.check_answer(answer, gold)
    english = await shared_checker.check_answer(answer, gold, language="en")
    assert default == english
    assert english.outcome is outcome, english
    assert reason in english.reason


@ON_THE_WORKER
@pytest.mark.parametrize(
    ("attempt", "gold", "read"),
    [
        ("Sumamos las dos partes: 1,25 + 1,25 = 2,5. So the answer is \\boxed{2,5}.", "5/2",
         "2,5"),
        ("La media es 2.500 / 1.000 = 2,5", "5/2", "2,5"),
        ("The total is 1.234,5.", "1234.5", "1234,5"),
        ("The answer is (1,5; 2).", "(1.5, 2)", "(3/2, 2)"),
    ],
)
async def test_an_attempt_in_spanish_is_graded_with_its_decimal_commas(
    shared_checker: Checker, attempt: str, gold: str, read: str
) -> None:
    verdict = await shared_checker.check_attempt(attempt, gold, language="es")
    assert verdict.outcome is Grade.CORRECT, verdict
    assert verdict.read == read
    english = await shared_checker.check_attempt(attempt, gold)
    assert english.outcome is not Grade.CORRECT, english


@ON_THE_WORKER
async def test_an_ambiguous_final_answer_in_an_attempt_is_asked_about(
    shared_checker: Checker,
) -> None:
    verdict = await shared_checker.check_attempt("The answer is 1,234.", "1234", language="es")
    assert verdict.outcome is Grade.REJECTED
    assert "did you mean 1,234 or 1234?" in verdict.reason


@ON_THE_WORKER
async def test_a_gold_is_written_with_a_point_in_every_language(shared_checker: Checker) -> None:
    verdict = await shared_checker.check_answer("3,5", "3,5", language="es")
    assert verdict.outcome is Grade.REJECTED
    assert "problem with the lesson" in verdict.reason
    assert await shared_checker.read_gold("3.5") == "3.5"


@ON_THE_WORKER
async def test_an_unknown_language_is_refused_before_any_check(shared_checker: Checker) -> None:
    with pytest.raises(ValueError, match="reads answers in en, es, not 'fr'"):
        await shared_checker.check_answer("3,5", "3.5", language="fr")
    with pytest.raises(ValueError, match="not 'de'"):
        await shared_checker.check_attempt("The answer is 3,5.", "3.5", language="de")


@pytest.mark.parametrize("language", ["fr", 3, None])
def test_the_worker_refuses_a_request_in_an_unknown_language(language: object) -> None:
    request = {"id": 1, "op": "answer", "text": "3,5", "gold": "3.5", "language": language}
    assert handle_request(encode(request)) == {"id": None, "error": "malformed request"}


def test_the_worker_reads_a_request_without_a_language_in_english() -> None:
    reply = handle_request(json.dumps({"id": 2, "op": "answer", "text": "1,234",
                                       "gold": "1234"}).encode() + b"\n")
    assert reply["outcome"] == "correct"


def test_the_worker_reads_a_gold_the_same_in_every_language() -> None:
    reply = handle_request(encode({"id": 3, "op": "gold", "text": "", "gold": "2/4",
                                   "language": "es"}))
    assert (reply["outcome"], reply["read"]) == ("correct", "1/2")


@pytest.mark.parametrize(
    ("arguments", "status", "printed"),
    [
        (["--language", "es", "3,5", "7/2"], 0, "read:    3,5"),
        (["3,5", "7/2"], 2, "more than one answer"),
        (["--language", "es", "1,234", "1234"], 2, "did you mean 1,234 or 1234?"),
        (["--language", "fr", "3,5", "7/2"], 2, "'fr' is not one of 'en', 'es'"),
    ],
)
def test_verify_takes_a_language(arguments: list[str], status: int, printed: str) -> None:
    result = CliRunner().invoke(cli, ["verify", *arguments])
    assert result.exit_code == status, result.output
    assert printed in result.output


_WHOLE = st.integers(min_value=0, max_value=10**6)
_FRACTION = st.from_regex(r"[0-9]{1,2}|[0-9]{4,6}", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(whole=_WHOLE, fraction=_FRACTION, negative=st.booleans(), other=_WHOLE)
def test_a_decimal_comma_reads_exactly_as_the_decimal_point(
    whole: int, fraction: str, negative: bool, other: int
) -> None:
    sign = "-" if negative else ""
    answer, gold = f"{sign}{whole},{fraction}", f"{sign}{whole}.{fraction}"
    assert grade_answer(answer, gold, language="es").outcome is Grade.CORRECT
    wrong = f"{sign}{whole}.{fraction}1" if other % 2 else f"{sign}{other + whole + 1}"
    assert grade_answer(answer, wrong, language="es").outcome is not Grade.CORRECT


@settings(max_examples=200, deadline=None)
@given(head=st.integers(min_value=1, max_value=999),
       group=st.from_regex(r"[0-9]{3}", fullmatch=True))
def test_one_to_three_digits_a_comma_and_three_digits_is_never_graded(
    head: int, group: str
) -> None:
    answer = f"{head},{group}"
    for gold in (f"{head}.{group}", f"{head}{group}"):
        verdict = grade_answer(answer, gold, language="es")
        assert verdict.outcome is Grade.REJECTED, (answer, gold, verdict)
        assert WHOLE_OR_DECIMAL in verdict.reason


@ON_THE_WORKER
@pytest.mark.parametrize(
    "answer",
    ["1," * 99 + "1", "9" * 190 + ",5", "1.234," * 30 + "5", "(" * 40 + "1,5" + ")" * 40,
     "1 234" * 35 + ",5", "{,}" * 60 + "1"],
)
async def test_long_or_odd_numbers_with_commas_are_answered_in_time(
    shared_checker: Checker, answer: str
) -> None:
    verdict = await shared_checker.check_answer(answer, "1.5", language="es")
    assert verdict.outcome is not Grade.CORRECT, verdict
    assert "too long to check" not in verdict.reason
