"""Split an answer into a short list of known tokens, refusing everything else."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import N_
from bot.verifier.errors import ReadError
from bot.verifier.said import Said


class Kind(StrEnum):
    """What a token is, as far as the parser cares."""

    NUMBER = "number"
    VARIABLE = "variable"
    CONSTANT = "constant"
    FUNCTION = "function"
    FRACTION = "fraction"
    ROOT = "root"
    OPERATOR = "operator"
    OPEN = "open"
    CLOSE = "close"
    PERCENT = "percent"
    FACTORIAL = "factorial"
    EQUALS = "equals"
    SEPARATOR = "separator"
    HEDGE = "hedge"


@dataclass(frozen=True)
class Token:
    """One token: its kind and its canonical text (for example '^' for both ^ and **)."""

    kind: Kind
    text: str


_TOKEN_PATTERN = re.compile(
    r"(?P<space>\s+|\$|\\[,;:! $()\[\]]|\\q?quad(?![A-Za-z]))"
    r"|(?P<based>\d+_(?:\{\d{1,2}\}|\d{1,2}(?!\d)))"
    r"|(?P<number>(?:\d{1,3}(?P<separator>,|\{,\}|\\,| )\d{3}(?:(?P=separator)\d{3})*(?!\d)"
    r"|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
    r"|\.\d+(?:[eE][-+]?\d+)?)"
    r"|(?P<command>\\[A-Za-z]+|\\%)"
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<symbol>\*\*|[-+*/^()\[\]{}%!=,;±∓])"
)

_COMMANDS = {
    "\\frac": Token(Kind.FRACTION, "frac"),
    "\\dfrac": Token(Kind.FRACTION, "frac"),
    "\\tfrac": Token(Kind.FRACTION, "frac"),
    "\\cfrac": Token(Kind.FRACTION, "frac"),
    "\\sqrt": Token(Kind.ROOT, "sqrt"),
    "\\cdot": Token(Kind.OPERATOR, "*"),
    "\\times": Token(Kind.OPERATOR, "*"),
    "\\div": Token(Kind.OPERATOR, "/"),
    "\\pi": Token(Kind.CONSTANT, "pi"),
    "\\%": Token(Kind.PERCENT, "%"),
    "\\pm": Token(Kind.HEDGE, "±"),
    "\\mp": Token(Kind.HEDGE, "∓"),
    "\\lor": Token(Kind.HEDGE, "or"),
    "\\vee": Token(Kind.HEDGE, "or"),
}

_IGNORED_COMMANDS = frozenset(
    {
        "\\left", "\\right", "\\big", "\\Big", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr",
        "\\displaystyle", "\\text", "\\textrm", "\\mathrm", "\\textbf", "\\mathbf",
        "\\mathit", "\\operatorname",
    }
)

_WORDS = {"sqrt": Token(Kind.FUNCTION, "sqrt"), "pi": Token(Kind.CONSTANT, "pi")}
_HEDGE_WORDS = frozenset({"or", "and"})
_PERCENT_WORDS = frozenset({"percent", "pct", "percentage", "porciento"})
_COMMA_SEPARATORS = frozenset({",", "{,}"})
"""Thousands separators that are also written as a decimal comma; kept as ',' in tokens."""

_SYMBOLS = {
    "**": Token(Kind.OPERATOR, "^"),
    "%": Token(Kind.PERCENT, "%"),
    "!": Token(Kind.FACTORIAL, "!"),
    "=": Token(Kind.EQUALS, "="),
    ",": Token(Kind.SEPARATOR, ","),
    ";": Token(Kind.SEPARATOR, ";"),
    "±": Token(Kind.HEDGE, "±"),
    "∓": Token(Kind.HEDGE, "∓"),
    **{op: Token(Kind.OPERATOR, op) for op in "+-*/^"},
    **{bracket: Token(Kind.OPEN, bracket) for bracket in "([{"},
    **{bracket: Token(Kind.CLOSE, bracket) for bracket in ")]}"},
}


def tokenize(text: str) -> list[Token]:
    """Split `text` into tokens, raising ReadError at the first thing that is not simple maths."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN_PATTERN.match(text, position)
        if match is None:
            raise ReadError(_unknown_character_reason(text[position]))
        position = match.end()
        token = _token_for(match)
        if token is not None:
            tokens.append(token)
    return tokens


def _token_for(match: re.Match[str]) -> Token | None:
    """Turn one regex match into a token, or None for spacing and ignorable markup."""
    text = match.group()
    group = match.lastgroup
    if group == "space":
        return None
    if group == "number":
        return _number_token(text, match.group("separator"))
    if group == "based":
        return based_number(text)
    if group == "command":
        return _command_token(text)
    if group == "word":
        return _word_token(text)
    return _SYMBOLS[text]


def _number_token(text: str, separator: str | None) -> Token:
    """Make a number token, writing thousands separators as ',' (ambiguous) or nothing."""
    if separator is None:
        return Token(Kind.NUMBER, text)
    if text.startswith("0"):
        raise ReadError(_leading_zero_reason(text, separator))
    kept = "," if separator in _COMMA_SEPARATORS else ""
    return Token(Kind.NUMBER, text.replace(separator, kept))


MAX_BASE = 10
"""Largest base a number may be written in with a subscript, as in 204_5 (digits only)."""


def based_number(text: str) -> Token:
    """A number written in a base, such as 204_5 or 204_{5}, as the token 204_5."""
    digits, _, base_text = text.partition("_")
    base = int(base_text.strip("{}"))
    if not 2 <= base <= MAX_BASE:
        raise ReadError(Said(N_("I read numbers in a base from 2 to {most}, written like 204_5."),
                             most=MAX_BASE))
    if any(int(digit) >= base for digit in digits):
        raise ReadError(Said(N_("In base {base} the digits run from 0 to {top}, so I can't read "
                                "{number}."), base=base, top=base - 1, number=text))
    return Token(Kind.NUMBER, f"{digits}_{base}")


def _leading_zero_reason(text: str, separator: str) -> str:
    """Ask what a grouped number starting with 0, such as 0,500, was meant to be."""
    first, *groups = re.split(r"[.eE]", text)[0].split(separator)
    as_decimal = f"{int(first)}.{''.join(groups)}".rstrip("0").rstrip(".")
    as_whole = str(int(first + "".join(groups)))
    if as_decimal == as_whole:
        return Said(N_("I can't tell what {text} means: did you mean {whole}? Write decimals "
                       "with a point and whole numbers without separators."),
                    text=text, whole=as_whole)
    return Said(N_("I can't tell what {text} means: did you mean {decimal} or {whole}? Write "
                   "decimals with a point and whole numbers without separators."),
                text=text, decimal=as_decimal, whole=as_whole)


def _command_token(command: str) -> Token | None:
    """Map a LaTeX command onto a token, None for layout-only commands, or refuse it."""
    if command in _IGNORED_COMMANDS:
        return None
    if command in _COMMANDS:
        return _COMMANDS[command]
    if command == "\\infty":
        raise ReadError(N_("Infinity isn't a value I can check; give a finite answer."))
    raise ReadError(Said(
        N_("I don't know the LaTeX command {command}. I can read \\frac, \\dfrac, \\cfrac, "
           "\\sqrt, \\cdot, \\times, \\div, \\pi and \\%."),
        command=command,
    ))


def _word_token(word: str) -> Token:
    """Map a run of letters onto a variable, a known name, or refuse it."""
    if word.lower() in _PERCENT_WORDS:
        return Token(Kind.PERCENT, "%")
    if word.lower() in _HEDGE_WORDS:
        return Token(Kind.HEDGE, word.lower())
    if word in _WORDS:
        return _WORDS[word]
    if len(word) == 1:
        return Token(Kind.VARIABLE, word)
    raise ReadError(Said(
        N_("I can't read the word '{word}'. Give just a number or expression, with no words "
           "or units (write a product of letters as x*y)."),
        word=word,
    ))


def _unknown_character_reason(char: str) -> str:
    """Explain, in plain words, that `char` is not something answers may contain."""
    shown = char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"
    return Said(
        N_("I can only read numbers and simple maths like 3/4, 2x+1 or \\frac{{1}}{{2}}; "
           "'{shown}' isn't part of that."),
        shown=shown,
    )
