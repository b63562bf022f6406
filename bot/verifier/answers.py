"""Answers with several values, read the way the gold answer asks for.

How a gold answer is read:

* ``{1, 2}``, ``\\{1, 2\\}``, ``\\pm 3``, ``x = \\pm 3`` and ``1 \\pm \\sqrt{2}`` are sets:
  order and repeats do not matter.
* ``(3, 2)`` with round brackets and no infinity is an ordered tuple (a point). It is never
  read as an open interval; write that gold as ``1 < x < 2``.
* ``[0, 1)``, ``(1, \\infty)``, ``(-\\infty, 2]`` and ``[0, 1]`` are intervals, and so are
  inequalities in one letter: ``x \\le 5``, ``5 \\ge x``, ``1 < x \\le 3``, ``x \\in [0, 1)``.
* A bare list of values separated by a comma and a space (``1, 2, 3``) is a set too. A gold
  joined by 'or' or 'and' (``3 or 4``), or with a comma between digits (``1,5``), is refused:
  it must say which kind it is. Thousands commas are refused in golds with several values.

How a member's answer is read against such a gold:

* Against a set: ``{1, 2}``, ``1, 2``, ``1; 2``, ``1 and 2``, ``x = 1 or x = 2``, ``\\pm`` forms.
* Against a tuple: ``(3, 2)`` or ``3, 2``, in order; braces or square brackets are refused.
* Against an interval: interval notation or an inequality, either way round.
* ``+-3`` and ``+/-3`` mean ``\\pm 3``.
* A comma between digits is read as usual first: ``1,000`` is a thousand and ``1,2`` is the
  list 1 and 2. If that usual reading is right the answer is correct (as 2,500 is against a
  gold of 2500). If it is wrong but another reading is right (``1,000`` as the values 1 and 0,
  ``4,5`` as the decimal 4.5, 'one hundred and five' as 100 and 5), the answer is refused with
  a question back, never graded incorrect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

import sympy

from bot.i18n import N_
from bot.verifier.compare import exactly_equal, numerically_close
from bot.verifier.decimal_comma import decimal_comma_readings
from bot.verifier.errors import SEVERAL, ReadError
from bot.verifier.intervals import Span, gold_span, inequality, interval_of, judge_span, span_answer
from bot.verifier.normalize import normalize_text, preview
from bot.verifier.parser import EMPTY
from bot.verifier.pieces import (
    MarkKind,
    Piece,
    Split,
    checked_value,
    has_comma_number,
    is_comma_number,
    is_mark,
    is_token,
    letter_and_rest,
    show_pieces,
    split_pieces,
    to_pieces,
    tokens_only,
)
from bot.verifier.reader import answer_core, show_value
from bot.verifier.said import Said, either
from bot.verifier.tokens import Kind, Token
from bot.verifier.verdict import Grade, Verdict
from bot.verifier.words import spell_numbers, unwrap_text_commands

MAX_VALUES = 20
"""Most values an answer with several values may hold."""

_GOLD_KIND = N_("A gold answer with several values must say what kind it is: {{3, 4}} for a "
                "set, (3, 4) for a point, [3, 4] for an interval; '{shown}' looks like more "
                "than one answer.")
_NAMED_POINT = N_("Write the point as its coordinates in order, like (3, 2), without naming them.")
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d)")
_EXACTLY = N_(
    "Values are checked exactly: write fractions and constants, not rounded decimals."
)
_POINT_HINT = N_("Put a space after each comma between values, write decimals with a point and "
               "large numbers without commas.")
_SEMICOLON_HINT = N_("Separate the values with semicolons, like (1,5; 2), and write whole numbers "
                   "without a thousands separator.")


@dataclass(frozen=True)
class Values:
    """Several values: a set when unordered, a tuple (a point) when ordered."""

    items: tuple[sympy.Expr, ...]
    ordered: bool
    shown: str


MultiValued = Values | Span
"""A gold answer, or a member's answer, with several values."""


def read_multi_gold(gold: str) -> MultiValued | None:
    """Read a gold answer with several values, or None if it is a single value."""
    pieces = to_pieces(unwrap_text_commands(answer_core(gold)))
    if has_comma_number(pieces) and _has_several(pieces):
        raise ReadError(N_("Write numbers in a gold answer with several values without "
                           "thousands commas (1000, not 1,000)."))
    if any(is_mark(piece, MarkKind.RELATION) for piece in pieces):
        return gold_span(inequality(pieces))
    letter, rest = letter_and_rest(pieces)
    split = split_pieces(rest)
    if split.brackets == "{}" or (split.brackets and len(split.parts) > 1):
        return _gold_of_brackets(split, letter)
    if len(split.parts) > 1:
        return _gold_list(split, gold)
    if any(_is_plus_minus(piece) for piece in pieces):
        return _set_of_parts([rest], letter)
    return None


def _gold_list(split: Split, gold: str) -> Values:
    """Read a gold such as '1, 2, 3' as a set; refuse '3 or 4' and '1,5' as unclear."""
    if split.separators - {",", ";"} or _DIGIT_COMMA.search(gold):
        raise ReadError(Said(_GOLD_KIND, shown=preview(gold)))
    return _set_of_parts(split.parts)


def grade_multi(answer: str, expected: MultiValued, *, decimal_comma: bool = False) -> Verdict:
    """Grade a member's answer against a gold with several values, asking back if ambiguous.

    With `decimal_comma`, the answer is in a language that writes one (see decimal_comma.py).
    """
    if decimal_comma:
        return _grade_with_decimal_commas(answer, expected)
    try:
        first, *others = _readings(answer)
        verdicts = [_judge(_read_as(first, expected), expected)]
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, error.reason)
    for pieces in others:
        with suppress(ReadError):
            verdicts.append(_judge(_read_as(pieces, expected), expected))
    return _agreed(verdicts, expected)


def _agreed(verdicts: list[Verdict], expected: MultiValued, hint: str = _POINT_HINT) -> Verdict:
    """The usual reading's verdict, or a question back when only another reading is right."""
    usual, *others = verdicts
    right = [verdict for verdict in others if verdict.outcome is Grade.CORRECT]
    if usual.outcome is Grade.CORRECT or not right:
        return usual
    return _ask_which([usual, *right], expected, hint)


def _ask_which(verdicts: list[Verdict], expected: MultiValued, hint: str) -> Verdict:
    """Refuse an answer that readings disagree on, asking which of them was meant."""
    shown = list(dict.fromkeys(verdict.read for verdict in verdicts))
    reason = Said(N_("I can't tell what you meant: {readings}? {hint}"), readings=either(shown),
                  hint=Said(hint))
    return Verdict(Grade.REJECTED, shown[0], expected.shown, reason)


def _grade_with_decimal_commas(answer: str, expected: MultiValued) -> Verdict:
    """Grade several values in a language with a decimal comma, asking when readings disagree.

    A comma between digits is read as a decimal comma and, unless semicolons or ± separate
    the values, as a separator too: then neither reading is the usual one, and any
    disagreement between them is asked about.
    """
    try:
        local = decimal_comma_readings(normalize_text(answer), several=True)
        texts = [*local.texts, answer] if local.comma_may_separate else list(local.texts)
        decides = local.first_decides and not local.comma_may_separate
        verdicts = _verdicts_of(texts, expected, usual_first=decides)
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), expected.shown, error.reason)
    if decides:
        return _agreed(verdicts, expected, _SEMICOLON_HINT)
    return _unanimous(verdicts, expected)


def _verdicts_of(texts: list[str], expected: MultiValued, *, usual_first: bool) -> list[Verdict]:
    """The verdict of every distinct reading of the texts that reads as the gold's kind.

    With `usual_first`, the first reading is the usual one and must read; otherwise a
    failure is raised only if no reading reads at all.
    """
    readings, errors = _distinct_readings(texts)
    if usual_first and errors:
        raise errors[0]
    verdicts: list[Verdict] = []
    for index, pieces in enumerate(readings):
        try:
            verdicts.append(_judge(_read_as(pieces, expected), expected))
        except ReadError as error:
            if usual_first and index == 0:
                raise
            errors.append(error)
    if not verdicts:
        raise errors[0]
    return verdicts


def _distinct_readings(texts: list[str]) -> tuple[list[list[Piece]], list[ReadError]]:
    """Every reading of each text, in order and without repeats, and the texts' failures."""
    readings: dict[str, list[Piece]] = {}
    errors: list[ReadError] = []
    for text in texts:
        try:
            found = _readings(text)
        except ReadError as error:
            errors.append(error)
            continue
        for pieces in found:
            readings.setdefault(repr(pieces), pieces)
    return list(readings.values()), errors


def _unanimous(verdicts: list[Verdict], expected: MultiValued) -> Verdict:
    """The first verdict if every reading agrees whether it is right, else a question back."""
    right = [verdict.outcome is Grade.CORRECT for verdict in verdicts]
    if all(right) or not any(right):
        return verdicts[0]
    return _ask_which(verdicts, expected, _SEMICOLON_HINT)


def _readings(answer: str) -> list[list[Piece]]:
    """Every way to read the answer, the usual one first (1,000 as a thousand, then 1 and 0).

    'one hundred and five' is 105, then 100 and 5. Raises ReadError if the usual reading
    fails; other readings that fail are left out.
    """
    core = unwrap_text_commands(answer_core(spell_numbers(answer)))
    pieces = to_pieces(core)
    readings = [pieces, *_commas_between_values(pieces), *_other_readings(core, answer)]
    unique: dict[str, list[Piece]] = {repr(pieces): pieces for pieces in readings}
    return list(unique.values())


def _other_readings(core: str, answer: str) -> list[list[Piece]]:
    """Read commas between digits as points (4,5 as 4.5), and 'a hundred and five' as two."""
    texts: list[str] = []
    if _DIGIT_COMMA.search(core):
        texts.append(_DIGIT_COMMA.sub(".", core))
    with suppress(ReadError):
        texts.append(unwrap_text_commands(answer_core(spell_numbers(answer, and_joins=False))))
    readings: list[list[Piece]] = []
    for text in texts:
        with suppress(ReadError):
            readings.append(to_pieces(text))
    return readings


def _commas_between_values(pieces: list[Piece]) -> list[list[Piece]]:
    """Read the commas of numbers such as 1,000 as separating values (1 and 0), if any."""
    if not has_comma_number(pieces):
        return []
    as_list: list[Piece] = []
    for piece in pieces:
        if not is_comma_number(piece):
            as_list.append(piece)
            continue
        for index, number in enumerate(piece.text.split(",")):
            as_list += [Token(Kind.SEPARATOR, ",")] if index else []
            as_list.append(Token(Kind.NUMBER, number))
    return [as_list]


def _read_as(pieces: list[Piece], expected: MultiValued) -> MultiValued:
    """Read the pieces of a member's answer as the gold's kind of answer."""
    if not pieces:
        raise ReadError(EMPTY)
    if isinstance(expected, Span):
        return span_answer(pieces)
    return _values_answer(pieces, ordered=expected.ordered)


def _judge(answer: MultiValued, expected: MultiValued) -> Verdict:
    """Compare an answer with the gold, exactly, and say why it does not match."""
    if isinstance(answer, Span) and isinstance(expected, Span):
        return judge_span(answer, expected)
    assert isinstance(answer, Values) and isinstance(expected, Values)
    if _same_values(answer, expected):
        return Verdict(Grade.CORRECT, answer.shown, expected.shown)
    return Verdict(Grade.INCORRECT, answer.shown, expected.shown,
                   _values_mismatch(answer, expected))


def _same_values(answer: Values, expected: Values) -> bool:
    """Tell whether two sets (or, when ordered, two tuples) hold exactly the same values."""
    if expected.ordered:
        return len(answer.items) == len(expected.items) and all(
            exactly_equal(a, b) for a, b in zip(answer.items, expected.items, strict=True))
    return (all(any(exactly_equal(a, b) for b in expected.items) for a in answer.items)
            and all(any(exactly_equal(a, b) for a in answer.items) for b in expected.items))


def _values_mismatch(answer: Values, expected: Values) -> str:
    """Why a set or tuple does not match: too few or many values, order, or rounding."""
    read = answer.shown
    count, wanted = len(_distinct(answer.items)), len(_distinct(expected.items))
    if expected.ordered and len(answer.items) != len(expected.items):
        return Said(N_("I read {read}, with {coordinates}; the answer has {wanted}."), read=read,
                    coordinates=_count(len(answer.items), coordinates=True), wanted=wanted)
    if not expected.ordered and count != wanted:
        return Said(N_("I read {read}: {count}, but the answer has {wanted}."), read=read,
                    count=_count(count), wanted=_count(wanted))
    as_set = Values(answer.items, ordered=False, shown=answer.shown)
    if expected.ordered and _same_values(as_set, Values(expected.items, False, "")):
        return Said(N_("I read {read}: the values are right, but not in the right order."),
                    read=read)
    close = any(numerically_close(a, b) for a in answer.items for b in expected.items
                if not exactly_equal(a, b))
    if close:
        return Said(N_("I read {read}, which doesn't match the expected answer. {exactly}"),
                    read=read, exactly=Said(_EXACTLY))
    return Said(N_("I read {read}, which doesn't match the expected answer."), read=read)


def _count(count: int, coordinates: bool = False) -> Said:
    """'1 value' or '3 values' ('1 coordinate', '3 coordinates')."""
    if coordinates:
        return Said.ngettext("{count} coordinate", "{count} coordinates", count)
    return Said.ngettext("{count} value", "{count} values", count)


def _distinct(items: Sequence[sympy.Expr]) -> list[sympy.Expr]:
    """The items with exact repeats removed, first occurrence kept."""
    kept: list[sympy.Expr] = []
    for item in items:
        if not any(exactly_equal(item, seen) for seen in kept):
            kept.append(item)
    return kept


def _values_answer(pieces: list[Piece], *, ordered: bool) -> Values:
    """Read a member's set or tuple: braced, bracketed or a bare list."""
    letter, rest = letter_and_rest(pieces)
    split = split_pieces(rest)
    allowed = "()" if ordered else "{}"
    if split.brackets and split.brackets != allowed and len(split.parts) > 1:
        raise ReadError(_wrong_brackets(split, ordered))
    if len(split.parts) > 1 and any(is_token(part[0], Kind.OPEN, "{") for part in split.parts):
        raise ReadError(Said(SEVERAL, shown=preview(show_pieces(pieces))))
    if not ordered:
        several = split.brackets == "{}" or len(split.parts) > 1
        return _set_of_parts(split.parts if several else [rest], letter)
    if split.separators - {","}:
        raise ReadError(Said(N_("That looks like more than one answer ({shown}); give just one. "
                                "Write a point as (3, 2)."), shown=preview(show_pieces(pieces))))
    if letter:
        raise ReadError(_NAMED_POINT)
    return _tuple_of(split)


def _wrong_brackets(split: Split, ordered: bool) -> str:
    """Explain which brackets an answer of the gold's kind is written with."""
    if ordered:
        return N_("The order matters here: write the answer in round brackets, like (3, 2).")
    if split.brackets == "()":
        return N_("That looks like a point; the order of these answers doesn't matter, so "
                  "write them as a list, like 1, 2, or a set, like {1, 2}.")
    return N_("Write several answers as a list, like 1, 2, or a set, like {1, 2}.")


def _gold_of_brackets(split: Split, letter: str | None) -> MultiValued:
    """Read a gold in brackets: a set in braces, a tuple in (), else an interval."""
    if split.brackets == "{}":
        return _set_of_parts(split.parts, letter)
    infinite = any(is_mark(piece, MarkKind.INFINITY) for part in split.parts for piece in part)
    if split.brackets == "()" and not infinite:
        if letter:
            raise ReadError(_NAMED_POINT)
        return _tuple_of(split)
    return gold_span(interval_of(split))


def _set_of_parts(parts: list[list[Piece]], letter: str | None = None) -> Values:
    """Read each part of a list as one or more values (± gives two) and make a set."""
    items: list[sympy.Expr] = []
    letters = {letter} if letter else set()
    for part in parts:
        named, tokens = _without_letter_prefix(part)
        letters |= {named} if named else set()
        items += _signed_values(tokens)
    if len(letters) > 1:
        raise ReadError(Said(N_("Those answers name different letters ({letters}); give the "
                                "values of one."), letters=", ".join(sorted(letters))))
    if len(items) > MAX_VALUES:
        raise ReadError(Said(N_("That is too many values to check; give at most {most}."),
                             most=MAX_VALUES))
    shown = "{" + ", ".join(show_value(item) for item in items) + "}"
    return Values(tuple(items), ordered=False, shown=shown)


def _tuple_of(split: Split) -> Values:
    """Read the parts of a point or tuple, in order, refusing names and ±."""
    items: list[sympy.Expr] = []
    for part in split.parts:
        letter, tokens = _without_letter_prefix(part)
        if letter:
            raise ReadError(_NAMED_POINT)
        values = _signed_values(tokens)
        if len(values) > 1:
            raise ReadError(N_("± gives two answers; give each coordinate as one value."))
        items += values
    if len(items) > MAX_VALUES:
        raise ReadError(Said(N_("That is too many values to check; give at most {most}."),
                             most=MAX_VALUES))
    return Values(tuple(items), ordered=True,
                  shown="(" + ", ".join(show_value(item) for item in items) + ")")


def _signed_values(tokens: list[Token]) -> list[sympy.Expr]:
    """Read a value, or the two values that ± (or ∓) stands for."""
    if not any(_is_plus_minus(token) for token in tokens):
        return [checked_value(tokens)]
    plus = {"±": "+", "∓": "-"}
    minus = {"±": "-", "∓": "+"}
    return [checked_value([Token(Kind.OPERATOR, signs[token.text]) if _is_plus_minus(token)
                      else token for token in tokens]) for signs in (plus, minus)]


def _is_plus_minus(piece: Piece) -> bool:
    """Tell whether a piece is ± or ∓."""
    return is_token(piece, Kind.HEDGE) and piece.text in "±∓"


def _without_letter_prefix(part: list[Piece]) -> tuple[str | None, list[Token]]:
    """Drop a leading 'x =' (or 'x \\in'), returning the letter and the tokens of the value."""
    letter, rest = letter_and_rest(part)
    return letter, tokens_only(rest)


def _has_several(pieces: list[Piece]) -> bool:
    """Tell whether pieces hold a list separator or a set brace at all."""
    return any(is_token(piece, Kind.SEPARATOR) or is_token(piece, Kind.OPEN, "{")
               or is_mark(piece, MarkKind.RELATION) for piece in pieces)
