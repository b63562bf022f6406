"""Intervals and inequalities in one letter, compared exactly as the sets of values they are.

``[0, 1)``, ``(1, \\infty)`` and ``(-\\infty, 2]`` are intervals; ``x \\le 5``, ``5 \\ge x``,
``1 < x \\le 3`` and ``x \\in [0, 1)`` are read as the interval they describe. An infinite end
is never included. Two intervals match when their ends are exactly equal and each end is
included in both or in neither.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from bot.i18n import N_
from bot.verifier.compare import exactly_equal
from bot.verifier.errors import SEVERAL, ReadError
from bot.verifier.normalize import preview
from bot.verifier.pieces import (
    Mark,
    MarkKind,
    Piece,
    Split,
    checked_value,
    is_mark,
    is_token,
    letter_and_rest,
    show_pieces,
    split_pieces,
    tokens_only,
)
from bot.verifier.reader import show_value
from bot.verifier.said import Said
from bot.verifier.tokens import Kind
from bot.verifier.verdict import Grade, Verdict

_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True)
class Span:
    """An interval, possibly written as an inequality in `letter`; ends may be infinite."""

    low: sympy.Expr
    high: sympy.Expr
    low_closed: bool
    high_closed: bool
    letter: str | None
    shown: str


def judge_span(answer: Span, expected: Span) -> Verdict:
    """Compare two intervals exactly: the same ends, each included or not alike."""
    if answer.letter and expected.letter and answer.letter != expected.letter:
        reason = Said(N_("I read an inequality in {letter}, but the answer is about {wanted}."),
                      letter=answer.letter, wanted=expected.letter)
        return Verdict(Grade.REJECTED, answer.shown, expected.shown, reason)
    ends = _same_end(answer.low, expected.low) and _same_end(answer.high, expected.high)
    closed = (answer.low_closed, answer.high_closed) == (expected.low_closed,
                                                          expected.high_closed)
    if ends and closed:
        return Verdict(Grade.CORRECT, answer.shown, expected.shown)
    reason = Said(N_("I read {read}: the ends are right, but check which ends are included.")
                  if ends else N_("I read {read}, which doesn't match the expected answer."),
                  read=answer.shown)
    return Verdict(Grade.INCORRECT, answer.shown, expected.shown, reason)


def _same_end(end: sympy.Expr, other: sympy.Expr) -> bool:
    """Tell whether two interval ends are the same (infinities only equal themselves)."""
    if end.is_infinite or other.is_infinite:
        return bool(end == other)
    return exactly_equal(end, other)


def gold_span(span: Span) -> Span:
    """Check that a gold interval is not empty: its low end is below its high end."""
    if not _ends_in_order(span):
        raise ReadError(Said(N_("An interval's left end must be below its right end ({shown})."),
                             shown=span.shown))
    return span


def _ends_in_order(span: Span) -> bool:
    """Tell whether an interval's low end is certainly below its high end."""
    return bool(sympy.Add(span.high, sympy.Mul(-1, span.low)).is_extended_positive)


def span_answer(pieces: list[Piece]) -> Span:
    """Read a member's interval or inequality."""
    if any(is_mark(piece, MarkKind.RELATION) for piece in pieces):
        return inequality(pieces)
    letter, rest = letter_and_rest(pieces)
    split = split_pieces(rest)
    if split.separators - {","}:
        raise ReadError(Said(SEVERAL, shown=preview(show_pieces(pieces))))
    if len(split.parts) != 2 or split.brackets not in ("()", "[]", "(]", "[)"):
        raise ReadError(N_("The answer is a range of values: write it as an interval, like "
                           "[0, 1) or (1, \\infty), or an inequality, like x \\le 5."))
    span = interval_of(split)
    return Span(span.low, span.high, span.low_closed, span.high_closed, letter, span.shown)


def interval_of(split: Split) -> Span:
    """Read two parts in brackets as an interval; an infinite end is never included."""
    if len(split.parts) != 2 or split.separators != {","}:
        raise ReadError(N_("An interval has two ends separated by a comma, like [0, 1)."))
    low, high = (_end_value(part) for part in split.parts)
    low_closed, high_closed = split.brackets[0] == "[", split.brackets[1] == "]"
    if (low_closed and low.is_infinite) or (high_closed and high.is_infinite):
        raise ReadError(N_("An infinite end is never included in an interval: write a round "
                           "bracket next to \\infty, like [0, \\infty)."))
    if low == sympy.oo or high == -sympy.oo:
        raise ReadError(N_("An interval runs from its lower end to its upper end, like "
                           "(-\\infty, 2]."))
    shown = f"{split.brackets[0]}{_show_end(low)}, {_show_end(high)}{split.brackets[1]}"
    return Span(low, high, low_closed, high_closed, None, shown)


def inequality(pieces: list[Piece]) -> Span:
    """Read 'x ≤ 5', '5 ≥ x', '1 < x ≤ 3' or 'x > 1 and x ≤ 3' as the interval it describes."""
    joined = [index for index, piece in enumerate(pieces) if is_token(piece, Kind.HEDGE, "and")]
    if len(joined) == 1:
        return _both(_one_inequality(pieces[: joined[0]]), _one_inequality(pieces[joined[0] + 1 :]))
    return _one_inequality(pieces)


def _both(first: Span, second: Span) -> Span:
    """Join a lower and an upper bound on the same letter, as in 'x > 1 and x ≤ 3'."""
    low, high = (first, second) if first.high.is_infinite else (second, first)
    if low.letter != high.letter or not (low.high.is_infinite and high.low.is_infinite):
        raise ReadError(N_("I can join a lower and an upper bound on one letter, like "
                           "x > 1 and x \\le 3; write that as 1 < x \\le 3."))
    return _span(low.low, high.high, (low.low_closed, high.high_closed), str(low.letter))


def _one_inequality(pieces: list[Piece]) -> Span:
    """Read one inequality, with one or two relations, in one letter."""
    sides, relations = _cut_at_relations(pieces)
    if len(sides) == 2:
        return _one_sided(sides, relations[0])
    if len(sides) == 3 and _is_letter(sides[1]) and len({r[0] for r in relations}) == 1:
        return _two_sided(sides, relations)
    raise ReadError("I can read an inequality in one letter, like x \\le 5 or 1 < x \\le 3, "
                    f"but not '{preview(show_pieces(pieces))}'.")


def _cut_at_relations(pieces: list[Piece]) -> tuple[list[list[Piece]], list[str]]:
    """Cut pieces at each <, ≤, > or ≥, returning the sides and the relations between them."""
    sides: list[list[Piece]] = [[]]
    relations: list[str] = []
    for piece in pieces:
        if isinstance(piece, Mark) and piece.kind is MarkKind.RELATION:
            relations.append(piece.text)
            sides.append([])
        else:
            sides[-1].append(piece)
    return sides, relations


def _one_sided(sides: list[list[Piece]], relation: str) -> Span:
    """Read 'x ≤ 5' or '5 ≥ x' (the letter on either side)."""
    left, right = sides
    if _is_letter(right) and not _is_letter(left):
        left, right, relation = right, left, _FLIPPED[relation]
    if not _is_letter(left):
        raise ReadError(N_("An inequality needs one letter on one side, like x \\le 5."))
    letter, bound = str(left[0].text), _bound_value(right)
    closed = relation.endswith("=")
    if relation.startswith("<"):
        return _span(-sympy.oo, bound, (False, closed), letter)
    return _span(bound, sympy.oo, (closed, False), letter)


def _two_sided(sides: list[list[Piece]], relations: list[str]) -> Span:
    """Read '1 < x ≤ 3' or '3 ≥ x > 1'."""
    low, high = _bound_value(sides[0]), _bound_value(sides[2])
    first, second = relations
    if first.startswith(">"):
        low, high, first, second = high, low, _FLIPPED[second], _FLIPPED[first]
    return _span(low, high, (first.endswith("="), second.endswith("=")), str(sides[1][0].text))


def _span(low: sympy.Expr, high: sympy.Expr, closed: tuple[bool, bool], letter: str) -> Span:
    """An interval read from an inequality, shown as the inequality."""
    signs = {False: "<", True: "≤"}
    parts = [] if low.is_infinite else [_show_end(low), signs[closed[0]]]
    parts.append(letter)
    parts += [] if high.is_infinite else [signs[closed[1]], _show_end(high)]
    return Span(low, high, closed[0], closed[1], letter, " ".join(parts))


def _is_letter(side: list[Piece]) -> bool:
    """Tell whether one side of an inequality is a single letter."""
    return len(side) == 1 and is_token(side[0], Kind.VARIABLE)


def _bound_value(side: list[Piece]) -> sympy.Expr:
    """Read one bound of an inequality: a number, never an expression in letters."""
    value = _end_value(side)
    if value.free_symbols:
        raise ReadError(N_("The bounds of an inequality must be numbers, like x \\le 5."))
    return value


def _end_value(part: list[Piece]) -> sympy.Expr:
    """Read one end of an interval: a value, or ∞ with an optional sign."""
    if part and is_mark(part[-1], MarkKind.INFINITY):
        sign = [piece.text for piece in part[:-1]]
        if sign in ([], ["+"]):
            return sympy.oo
        if sign == ["-"]:
            return -sympy.oo
    tokens = tokens_only(part)
    return checked_value(tokens)


def _show_end(end: sympy.Expr) -> str:
    """Show an interval's end, writing infinity as ∞."""
    if end.is_infinite:
        return "∞" if end == sympy.oo else "-∞"
    return show_value(end)
