"""Grade answers and attempts against gold answers (runs inside the worker process)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from functools import lru_cache

from bot.i18n import N_, SOURCE_LANGUAGE, speaking
from bot.verifier.answers import MultiValued, grade_multi, read_multi_gold
from bot.verifier.compare import compare, exactly_equal
from bot.verifier.decimal_comma import decimal_comma_readings
from bot.verifier.errors import ReadError
from bot.verifier.extract import extract_final_answer, find_boxed, stated_answer
from bot.verifier.languages import writes_decimal_comma
from bot.verifier.limits import EXTRACTED_MAX_CHARS
from bot.verifier.matrices import Matrix, grade_matrix, read_matrix
from bot.verifier.normalize import normalize_text, preview
from bot.verifier.pieces import split_pieces, to_pieces
from bot.verifier.reader import Reading, answer_core, read_answer
from bot.verifier.said import Said, either
from bot.verifier.verdict import Grade, Verdict
from bot.verifier.words import TextGold, judge_text, read_text_gold, spell_numbers

Expected = Reading | MultiValued | TextGold | Matrix
"""A gold answer as read: one value, several values (set, tuple, interval), words or a matrix."""

NO_FINAL_ANSWER = N_(
    "I couldn't find a final answer in that attempt; end it with \\boxed{...} "
    "or 'the answer is ...'."
)
ACCEPT_NEEDS_WORDS = N_("Accepted spellings (accept) are for an answer in words, such as 'odd'; "
                      "this expected answer is maths, which is read in every usual form.")
WHOLE_OR_DECIMAL = N_(
    "I can't tell whether that is a decimal or a whole number with a thousands separator: "
    "did you mean {shown}? Write whole numbers without a separator (1234) and decimals with "
    "a comma (2,5)."
)
"""Said only of answers read in a language that writes a decimal comma."""
BRACKETED_COMMA = N_(
    "I can't tell whether {shown} is several values or one number with a decimal comma; "
    "the answer here is one number, so write it without brackets."
)
IN_BASE = N_("The answer is asked for in base {base}: write it with its base, like {example}.")
CLOSE_NOT_EXACT = N_(
    "Close, but not exact: {read} isn't exactly the expected value. Answers are checked "
    "exactly, so write fractions and constants (1/3, pi) rather than rounded decimals."
)


def grade_answer(
    answer: str,
    gold: str,
    *,
    unit: str | None = None,
    accept: Sequence[str] = (),
    language: str = "en",
) -> Verdict:
    """Grade a member's typed `answer` against the authored `gold`, in `unit` if it has one.

    The answer is read in `language`: in one that writes a decimal comma (es), 3,5 is 3.5
    (see decimal_comma.py), and its words for numbers and for joining values are read; the
    numbers the verdict shows are written as that language writes them. The gold is read the
    same in every language.
    """
    try:
        expected = read_gold_cached(gold, unit, tuple(accept))
    except ReadError as error:
        return _unreadable_gold(gold, error)
    with speaking(language):
        return _graded(answer, expected, unit, language)


def _graded(answer: str, expected: Expected, unit: str | None, language: str) -> Verdict:
    """Grade an answer against a gold as read, in `language`, the language spoken."""
    if isinstance(expected, TextGold):
        return judge_text(answer, expected)
    if isinstance(expected, Matrix):
        return grade_matrix(answer, expected, language)
    if not isinstance(expected, Reading):
        return grade_multi(answer, expected, decimal_comma=writes_decimal_comma(language))
    if writes_decimal_comma(language):
        return _grade_with_decimal_commas(answer, expected, unit)
    try:
        reading = read_answer(spell_numbers(answer), unit=unit, expected=expected.value)
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, error.reason)
    return judge(reading, expected)


def grade_attempt(
    attempt: str,
    gold: str,
    *,
    unit: str | None = None,
    accept: Sequence[str] = (),
    language: str = "en",
) -> Verdict:
    """Find the final answer in a worked `attempt` and grade it against `gold`, in `unit`.

    The final answer is read in `language`, as `grade_answer` reads it.
    """
    try:
        expected = read_gold_cached(gold, unit, tuple(accept))
    except ReadError as error:
        return _unreadable_gold(gold, error)
    try:
        final = _final_answer(normalize_text(attempt), expected, keep_unit=unit is not None)
    except ReadError as error:
        return Verdict(Grade.REJECTED, "", expected.shown, error.reason)
    if final is None:
        return Verdict(Grade.REJECTED, "", expected.shown, NO_FINAL_ANSWER)
    if len(final) > EXTRACTED_MAX_CHARS:
        reason = N_("That final answer is too long to check; state it more simply.")
        return Verdict(Grade.REJECTED, preview(final), expected.shown, reason)
    return grade_answer(final, gold, unit=unit, accept=accept, language=language)


def _final_answer(attempt: str, expected: Expected, *, keep_unit: bool) -> str | None:
    """The attempt's final answer; for several values or words, all of 'the answer is ...'."""
    if not isinstance(expected, Reading) and not find_boxed(attempt):
        return stated_answer(attempt) or extract_final_answer(attempt)
    return extract_final_answer(attempt, keep_unit=keep_unit)


def grade_gold(gold: str, *, unit: str | None = None, accept: Sequence[str] = ()) -> Verdict:
    """Read an authored gold answer (in `unit` if any); CORRECT carries its reading."""
    try:
        expected = read_gold_cached(gold, unit, tuple(accept))
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(gold), preview(gold), error.reason)
    return Verdict(Grade.CORRECT, expected.shown, expected.shown)


def judge(reading: Reading, expected: Reading) -> Verdict:
    """Compare a reading with the expected reading and say CORRECT or INCORRECT, and why.

    A gold written in a base (204_5) asks for an answer written in that base.
    """
    if expected.base and reading.base != expected.base:
        reason = Said(IN_BASE, base=expected.base, example=f"10_{expected.base}")
        return Verdict(Grade.REJECTED, reading.shown, expected.shown, reason)
    comparison = compare(reading.value, expected.value)
    if comparison.equal:
        return Verdict(Grade.CORRECT, reading.shown, expected.shown)
    if _comma_could_be_a_point(reading, expected):
        return _ask_about_the_comma(reading, expected)
    if comparison.close:
        reason = Said(CLOSE_NOT_EXACT, read=reading.shown)
    else:
        reason = Said(N_("I read {read}, which doesn't match the expected answer."),
                      read=reading.shown)
    return Verdict(Grade.INCORRECT, reading.shown, expected.shown, reason)


def _comma_could_be_a_point(reading: Reading, expected: Reading) -> bool:
    """Tell whether the answer matches the gold only if its comma is read as a decimal point."""
    alternative = reading.comma_as_point
    return alternative is not None and exactly_equal(alternative.value, expected.value)


def _ask_about_the_comma(reading: Reading, expected: Reading) -> Verdict:
    """Refuse an answer such as 2,500 whose comma could be a decimal point, asking which."""
    as_point = reading.comma_as_point.shown if reading.comma_as_point else reading.shown
    reason = Said(N_("I can't tell whether that comma is a decimal point: did you mean "
                     "{as_point} or {as_comma}? Write decimals with a point and whole numbers "
                     "without a comma."), as_point=as_point, as_comma=reading.shown)
    return Verdict(Grade.REJECTED, reading.shown, expected.shown, reason)


def _grade_with_decimal_commas(answer: str, expected: Reading, unit: str | None) -> Verdict:
    """Grade one value written in a language with a decimal comma, asking when it is ambiguous."""
    try:
        local = decimal_comma_readings(normalize_text(answer))
        if local.comma_may_separate:
            _refuse_bracketed_list(answer)
        first, *others = local.texts
        readings = [read_answer(spell_numbers(first), unit=unit, expected=expected.value)]
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, error.reason)
    for text in others:
        with suppress(ReadError):
            readings.append(read_answer(spell_numbers(text), unit=unit, expected=expected.value))
    return _judge_readings(readings, expected, first_decides=local.first_decides)


def _refuse_bracketed_list(answer: str) -> None:
    """Refuse a decimal comma alone in brackets, as in (1,2), which could be a point."""
    try:
        split = split_pieces(to_pieces(answer_core(answer)))
    except ReadError:
        return
    if split.brackets and len(split.parts) > 1:
        raise ReadError(Said(BRACKETED_COMMA, shown=preview(answer_core(answer))))


def _judge_readings(readings: list[Reading], expected: Reading, *, first_decides: bool) -> Verdict:
    """Judge the readings of an answer that may be meant more than one way.

    The first reading's verdict stands when every reading agrees, or when it is right and it
    `first_decides`; otherwise, when only some readings are right, the member is asked.
    """
    verdict = judge(readings[0], expected)
    right = [verdict.outcome is Grade.CORRECT,
             *(exactly_equal(reading.value, expected.value) for reading in readings[1:])]
    if all(right) or not any(right) or (right[0] and first_decides):
        return verdict
    shown = either(list(dict.fromkeys(reading.shown for reading in readings)))
    return Verdict(Grade.REJECTED, readings[0].shown, expected.shown,
                   Said(WHOLE_OR_DECIMAL, shown=shown))


@lru_cache(maxsize=512)
def read_gold_cached(
    gold: str, unit: str | None = None, accept: tuple[str, ...] = ()
) -> Expected:
    """Read a gold answer once and reuse the result (gold answers repeat across checks).

    A gold is the lesson's own, read the same (in English notation) whatever the answer's language.
    """
    with speaking(SOURCE_LANGUAGE):
        return _read_gold(gold, unit, accept)


def _read_gold(gold: str, unit: str | None, accept: tuple[str, ...]) -> Expected:
    """Read a gold answer: words, a matrix, several values, or one value."""
    matrix = read_matrix(gold)
    if matrix is not None:
        return matrix
    text = read_text_gold(gold, accept)
    if text is not None:
        return text
    if accept:
        raise ReadError(ACCEPT_NEEDS_WORDS)
    try:
        multi = read_multi_gold(gold)
    except ReadError as several_error:
        try:
            return read_answer(gold, unit=unit)  # one value with a unit or degree sign after it
        except ReadError:
            raise several_error from None
    return multi or read_answer(gold, unit=unit)


def _unreadable_gold(gold: str, error: ReadError) -> Verdict:
    """Explain that the lesson's own expected answer could not be read."""
    reason = Said(N_("The expected answer for this question can't be read ({why}); "
                     "this is a problem with the lesson, not with your answer."),
                  why=error.reason)
    return Verdict(Grade.REJECTED, "", preview(gold), reason)
