"""Pieces of answers with several values: tokens plus ∞, <, ≤, \\in and \\{ \\}, cut into parts.

The answer's maths still goes through tokens.py and the restricted parser; this only adds
the marks that sets, intervals and inequalities are written with, and cuts a list into its
parts at top-level commas, semicolons, 'or' and 'and'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

import sympy

from bot.i18n import N_
from bot.verifier.errors import SEVERAL, UNCLOSED, UNOPENED, ReadError
from bot.verifier.guards import ensure_checkable
from bot.verifier.normalize import preview
from bot.verifier.parser import EMPTY, parse_tokens
from bot.verifier.said import Said
from bot.verifier.tokens import Kind, Token, tokenize


class MarkKind(StrEnum):
    """Marks that only answers with several values may use."""

    INFINITY = "infinity"
    RELATION = "relation"
    MEMBER = "member"


@dataclass(frozen=True)
class Mark:
    """A mark such as ∞ or ≤, with its canonical text ('oo', '<', '<=', '>', '>=', 'in')."""

    kind: MarkKind
    text: str


Piece = Token | Mark

_MARKS = re.compile(
    r"(?P<infinity>\\infty(?![A-Za-z])|∞|(?<![A-Za-z\\])(?:infinity|inf|oo)(?![A-Za-z]))"
    r"|(?P<le>\\leqslant(?![A-Za-z])|\\leq?(?![A-Za-z])|<=|≤|⩽)"
    r"|(?P<ge>\\geqslant(?![A-Za-z])|\\geq?(?![A-Za-z])|>=|≥|⩾)"
    r"|(?P<lt>\\lt(?![A-Za-z])|<)|(?P<gt>\\gt(?![A-Za-z])|>)"
    r"|(?P<open>\\\{|\\lbrace(?![A-Za-z]))|(?P<close>\\\}|\\rbrace(?![A-Za-z]))"
    r"|(?P<member>\\in(?![A-Za-z])|∈)|(?P<plus_minus>\+/?-)",
    re.IGNORECASE,
)
_RELATIONS = {"le": "<=", "ge": ">=", "lt": "<", "gt": ">"}
_SPACE_INSIDE_BRACKETS = re.compile(r"(?<=[(\[{])\s+|\s+(?=[,;)\]}])")
_LIST_SEPARATORS = frozenset({",", ";", "or", "and"})


def to_pieces(text: str) -> list[Piece]:
    """Split `text` into tokens and marks, raising ReadError on anything unreadable."""
    pieces: list[Piece] = []
    position = 0
    for match in _MARKS.finditer(text):
        pieces += tokenize(text[position : match.start()])
        pieces.append(_piece_for(match))
        position = match.end()
    return pieces + tokenize(text[position:])


def _piece_for(match: re.Match[str]) -> Piece:
    """The token or mark one match of the mark pattern stands for."""
    group = str(match.lastgroup)
    if group == "open":
        return Token(Kind.OPEN, "{")
    if group == "close":
        return Token(Kind.CLOSE, "}")
    if group in _RELATIONS:
        return Mark(MarkKind.RELATION, _RELATIONS[group])
    if group == "member":
        return Mark(MarkKind.MEMBER, "in")
    if group == "plus_minus":
        return Token(Kind.HEDGE, "±")
    return Mark(MarkKind.INFINITY, "oo")


def is_token(piece: Piece, kind: Kind, text: str | None = None) -> bool:
    """Tell whether `piece` is a token of this kind (and this text, when given)."""
    return isinstance(piece, Token) and piece.kind is kind and text in (None, piece.text)


def is_mark(piece: Piece, kind: MarkKind) -> bool:
    """Tell whether `piece` is a mark of this kind."""
    return isinstance(piece, Mark) and piece.kind is kind


def show_pieces(pieces: list[Piece]) -> str:
    """A plain rendering of pieces for messages, such as '{1, 2} or {3}'."""
    text = " ".join("∞" if is_mark(piece, MarkKind.INFINITY) else piece.text for piece in pieces)
    return _SPACE_INSIDE_BRACKETS.sub("", text)


@dataclass(frozen=True)
class Split:
    """An answer cut at its top-level separators, with the brackets around it (if any)."""

    parts: list[list[Piece]]
    brackets: str
    separators: set[str]


def checked_value(tokens: list[Token]) -> sympy.Expr:
    """Parse tokens into one finite, checked value."""
    if any(is_separator(token) for token in tokens):
        raise ReadError(Said(SEVERAL, shown=preview(show_pieces(list(tokens)))))
    if any(is_token(token, Kind.EQUALS) for token in tokens):
        raise ReadError(Said(N_("That's an equation ({shown}); give just the values."),
                             shown=preview(show_pieces(list(tokens)))))
    value = parse_tokens(tokens)
    ensure_checkable(value)
    return value


def tokens_only(part: list[Piece]) -> list[Token]:
    """The tokens of a part, refusing marks (∞, <, ∈) where a plain value belongs."""
    for piece in part:
        if isinstance(piece, Mark):
            raise ReadError(_misplaced(piece))
    return [piece for piece in part if isinstance(piece, Token)]


def _misplaced(mark: Mark) -> str:
    """Explain a mark found where a plain value belongs."""
    if mark.kind is MarkKind.INFINITY:
        return "Infinity can only be an end of an interval, like (1, \\infty)."
    return f"I didn't expect '{mark.text}' there; give the values only."


def letter_and_rest(pieces: list[Piece]) -> tuple[str | None, list[Piece]]:
    """Split off a leading 'x =' or 'x \\in'."""
    if len(pieces) > 2 and is_token(pieces[0], Kind.VARIABLE) and (
            is_token(pieces[1], Kind.EQUALS) or is_mark(pieces[1], MarkKind.MEMBER)):
        return str(pieces[0].text), pieces[2:]
    return None, pieces


def has_comma_number(pieces: list[Piece]) -> bool:
    """Tell whether any number is written with a comma, as in 1,000."""
    return any(is_comma_number(piece) for piece in pieces)


def is_comma_number(piece: Piece) -> bool:
    """Tell whether a piece is a number written with a comma."""
    return is_token(piece, Kind.NUMBER) and "," in piece.text


def split_pieces(pieces: list[Piece]) -> Split:
    """Cut pieces at top-level separators, after taking off brackets around the whole."""
    brackets, inner = _outer_brackets(pieces)
    if not inner:
        raise ReadError(EMPTY)
    parts: list[list[Piece]] = [[]]
    separators: set[str] = set()
    openings: list[str] = []
    for piece in inner:
        _track_brackets(piece, openings)
        if not openings and isinstance(piece, Token) and is_separator(piece):
            separators.add(piece.text)
            parts.append([])
        else:
            parts[-1].append(piece)
    if openings:
        raise ReadError(Said(UNCLOSED, bracket=openings[-1]))
    if any(not part for part in parts):
        raise ReadError(Said(N_("Something is missing between the commas of '{shown}'."),
                             shown=preview(show_pieces(pieces))))
    return Split(parts, brackets, separators)


def _track_brackets(piece: Piece, openings: list[str]) -> None:
    """Push an opening bracket, pop on a closing one, refusing a close with nothing open."""
    if is_token(piece, Kind.OPEN):
        openings.append(piece.text)
    elif is_token(piece, Kind.CLOSE):
        if not openings:
            raise ReadError(Said(UNOPENED, bracket=piece.text))
        openings.pop()


def is_separator(token: Token) -> bool:
    """Tell whether a token separates values in a list (a comma, a semicolon, 'or', 'and')."""
    return token.kind in (Kind.SEPARATOR, Kind.HEDGE) and token.text in _LIST_SEPARATORS


def _outer_brackets(pieces: list[Piece]) -> tuple[str, list[Piece]]:
    """The brackets around the whole answer (such as '[)') and what they hold, if any."""
    if len(pieces) < 2 or not (is_token(pieces[0], Kind.OPEN) and is_token(pieces[-1],
                                                                            Kind.CLOSE)):
        return "", pieces
    depth = 0
    for piece in pieces[:-1]:
        depth += is_token(piece, Kind.OPEN) - is_token(piece, Kind.CLOSE)
        if depth == 0:
            return "", pieces
    opening, closing = str(pieces[0].text), str(pieces[-1].text)
    if (opening == "{") != (closing == "}"):
        raise ReadError(N_("A '{' must be closed by '}'; check your brackets."))
    return opening + closing, pieces[1:-1]
