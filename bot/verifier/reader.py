"""Read one answer string into an exact sympy value, or explain why it can't be read."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

import sympy

from bot.i18n import N_, current_language, decimal
from bot.verifier.errors import SEVERAL, ReadError
from bot.verifier.extract import find_boxed
from bot.verifier.guards import ensure_checkable
from bot.verifier.languages import writes_decimal_comma
from bot.verifier.normalize import normalize_text, preview
from bot.verifier.parser import EMPTY, parse_tokens
from bot.verifier.phrases import stated_answer
from bot.verifier.said import Said
from bot.verifier.tokens import Kind, Token, tokenize
from bot.verifier.units import refuse_letter_after_number, require_unit, without_unit

_SHOWN_CHARS = 80
_BOLD_LEAD_IN = re.compile(
    r"(\*\*|__)((?:the\s+|la\s+)?(?:final\s+)?(?:answer|respuesta)(?:\s+final)?"
    r"(?:\s+(?:is|es)\b)?\s*:?)\s*\1",
    re.IGNORECASE,
)
_BOLD = re.compile(r"(\*\*|__)([^*_]*)\1")
_AMBIGUOUS_COMMA = re.compile(r"\d{1,3},\d{3}(?:[eE][-+]?\d+)?")
_COMMA_HINTS = {
    False: N_("For a decimal use a point (1.5); for thousands write 1,000 or 1000."),
    True: N_("For a decimal use a comma (1,5); write whole numbers without a separator (1000)."),
}
"""How to write a decimal and a whole number, where a point (False) or a comma (True) is one."""


@dataclass(frozen=True)
class Reading:
    """An answer as the checker understood it: its exact value and how to show it."""

    value: sympy.Expr
    shown: str
    comma_as_point: Reading | None = None
    """The reading with a comma such as that of 2,500 taken as a decimal point, if it has one."""
    base: int | None = None
    """The base the answer's numbers are written in with a subscript (204_5), if any."""


def read_answer(
    text: str, *, unit: str | None = None, expected: sympy.Expr | None = None
) -> Reading:
    """Read `text` as one answer, raising ReadError with a friendly reason if it can't be.

    `unit` is the unit the answer is in (written after the number, or left out); any other
    unit is refused. The `expected` (gold) value, when given, decides two things: with no
    letters in it, a letter after a number is refused rather than read as a variable; with
    pi in it, a degree sign is refused rather than dropped.
    """
    step_unit = require_unit(unit)
    radians = expected is not None and expected.has(sympy.pi)
    core = without_unit(answer_core(text), step_unit, radians=radians)
    if not core:
        raise ReadError(EMPTY)
    tokens = tokenize(core)
    _reject_several_answers(tokens, core)
    tokens = _without_variable_prefix(tokens, core)
    if expected is not None and not expected.free_symbols:
        refuse_letter_after_number(tokens, step_unit)
    reading = _reading_of(tokens)
    if any(_has_ambiguous_comma(token) for token in tokens):
        reading = replace(reading, comma_as_point=_reading_of(_commas_as_points(tokens)))
    return reading


def _reading_of(tokens: list[Token]) -> Reading:
    """Parse tokens into a checked value and its display text."""
    value = parse_tokens(tokens)
    ensure_checkable(value)
    written_as_decimal = any(token.kind is Kind.NUMBER and "." in token.text for token in tokens)
    bases = {int(token.text.partition("_")[2]) for token in tokens
             if token.kind is Kind.NUMBER and "_" in token.text}
    if bases:
        shown = tokens[0].text if len(tokens) == 1 else show_value(value)
        return Reading(value, shown, base=bases.pop() if len(bases) == 1 else 0)
    return Reading(value, show_value(value, as_decimal=written_as_decimal))


def _has_ambiguous_comma(token: Token) -> bool:
    """Tell whether a number such as 2,500 could also mean 2.5 with a decimal comma."""
    return token.kind is Kind.NUMBER and _AMBIGUOUS_COMMA.fullmatch(token.text) is not None


def _commas_as_points(tokens: list[Token]) -> list[Token]:
    """Return `tokens` with every ambiguous comma read as a decimal point (2,500 as 2.500)."""
    return [Token(Kind.NUMBER, token.text.replace(",", ".")) if _has_ambiguous_comma(token)
            else token for token in tokens]


def answer_core(text: str) -> str:
    """Normalise `text` and strip its lead-in, bold, \\boxed{...} and trailing full stop."""
    return _unwrap(_without_bold(_without_lead_in(_without_bold(normalize_text(text)))))


def _without_lead_in(text: str) -> str:
    """Drop lead-ins and endings ('Final answer:', 'Therefore ... is the solution'; maybe bold).

    See phrases.py for the phrases read, in every language the checker knows.
    """
    text = text.lstrip()
    bold = _BOLD_LEAD_IN.match(text)
    if bold:
        text = f"{bold.group(2)} {text[bold.end() :]}"
    return stated_answer(text)


def _without_bold(text: str) -> str:
    """Drop Markdown bold (**3** or __3__) wrapped around the whole of `text`."""
    bold = _BOLD.fullmatch(text.strip())
    return bold.group(2) if bold else text


def show_value(value: sympy.Expr, *, as_decimal: bool = False) -> str:
    """Return a short, plain-text rendering of `value`, such as 'x^2 + 1', '1/2' or '0.5'."""
    try:
        written = _terminating_decimal(value) if as_decimal else None
        shown = written or str(sympy.sstr(value)).replace("**", "^")
    except ValueError:
        return "a very large number"
    if len(shown) > _SHOWN_CHARS:
        return shown[: _SHOWN_CHARS - 1] + "…"
    return shown


def _terminating_decimal(value: sympy.Expr) -> str | None:
    """Write a rational such as 5/2 as '2.5' ('2,5' in Spanish) if its decimals end; never 2.500."""
    if not value.is_Rational:
        return None
    numerator, denominator = int(value.p), int(value.q)
    twos = fives = 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator != 1:
        return None
    places = max(twos, fives)
    scaled = Decimal(numerator * 10**places // int(value.q)).scaleb(-places)
    return decimal(scaled, places, grouped=False)


def _unwrap(text: str) -> str:
    """Strip surrounding space, a trailing full stop and a single \\boxed{...} wrapper."""
    text = text.strip()
    boxed = list(dict.fromkeys(content.strip() for content in find_boxed(text)))
    if len(boxed) > 1:
        raise ReadError(Said(N_("That boxes more than one answer ({shown}); give just one."),
                             shown=preview(", ".join(boxed))))
    if boxed:
        text = boxed[0]
    elif "\\boxed" in text or "\\fbox" in text:
        raise ReadError(N_("The \\boxed{...} isn't closed; check its braces."))
    return text.rstrip(". \t\n").strip()


def _reject_several_answers(tokens: list[Token], core: str) -> None:
    """Raise ReadError if the answer hedges (3 or 4, ±2) or lists several values (3, 4)."""
    if any(token.kind is Kind.HEDGE and token.text in "±∓" for token in tokens):
        raise ReadError(N_("± gives two answers; give just one."))
    if any(token.kind in (Kind.HEDGE, Kind.SEPARATOR) for token in tokens):
        if any(token.text == "," for token in tokens):
            raise ReadError(Said(N_("That looks like more than one answer ({shown}); give just "
                                    "one. {hint}"), shown=preview(core), hint=Said(_comma_hint())))
        raise ReadError(Said(SEVERAL, shown=preview(core)))


def _comma_hint() -> str:
    """How to write decimals and whole numbers in the language answers are read in."""
    return _COMMA_HINTS[writes_decimal_comma(current_language())]


def _without_variable_prefix(tokens: list[Token], core: str) -> list[Token]:
    """Drop a leading 'x =' so 'x = 3' reads as 3; refuse any other equation."""
    equals = [index for index, token in enumerate(tokens) if token.kind is Kind.EQUALS]
    if not equals:
        return tokens
    if equals == [1] and tokens[0].kind is Kind.VARIABLE:
        return tokens[2:]
    raise ReadError(Said(N_("That's an equation ({shown}); give just the final value."),
                         shown=preview(core)))
