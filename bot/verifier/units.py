"""Units written after a number: a small table of spellings, and what an answer's unit means.

A step may name the unit its answer is in (`unit: km/h`). Then that unit, written out or
abbreviated after the number, is accepted, a bare number is read in that unit, and any other
known unit is refused by name: the checker never converts, and never guesses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from bot.i18n import N_
from bot.verifier.errors import ReadError
from bot.verifier.said import Said
from bot.verifier.tokens import Kind, Token


@dataclass(frozen=True)
class Unit:
    """A unit: the symbol messages use, its name in words, and every spelling accepted."""

    symbol: str
    name: str
    spellings: tuple[str, ...]


def _spelled(symbol: str, name: str, *others: str) -> Unit:
    """A unit whose spellings are its symbol, its name and `others`."""
    return Unit(symbol, name, (symbol, name, *others))


PERCENT = _spelled("%", "percent", "\\%", "pct", "percentage", "per cent", "por ciento",
                   "porciento")
"""Percent: with no unit named it keeps its meaning of 1/100 (75% is 3/4)."""
DEGREES = _spelled("°", "degrees", "degree", "deg", "^\\circ", "^{\\circ}", "\\circ", "\\degree",
                   "grados", "grado")
"""Degrees: with no unit named a degree sign is notation (90° is 90), unless the gold has pi."""
_METRE = ("metre", "metres", "meter", "meters", "metro", "metros")
_KILOMETRE = ("kilometre", "kilometres", "kilometer", "kilometers", "kilómetro", "kilómetros",
              "kilometro", "kilometros")
UNITS = (
    _spelled("mm", "millimetres", "millimetre", "millimeter", "millimeters", "milímetros",
             "milímetro", "milimetros", "milimetro"),
    _spelled("cm", "centimetres", "centimetre", "centimeter", "centimeters", "centímetros",
             "centímetro", "centimetros", "centimetro"),
    _spelled("m", "metres", *_METRE),
    _spelled("km", "kilometres", *_KILOMETRE),
    _spelled("ft", "feet", "foot", "pies", "pie"),
    _spelled("mi", "miles", "mile", "millas", "milla"),
    _spelled("s", "seconds", "sec", "secs", "second", "segundos", "segundo", "seg"),
    _spelled("min", "minutes", "mins", "minute", "minutos", "minuto"),
    _spelled("h", "hours", "hr", "hrs", "hour", "horas", "hora"),
    _spelled("km/h", "kilometres per hour", "kph", "kmph", "kmh", "km/hr", "km per hour",
             "km an hour", "km por hora", *(f"{word} per hour" for word in _KILOMETRE),
             *(f"{word} por hora" for word in _KILOMETRE)),
    _spelled("m/s", "metres per second", "m/sec", "m per second", "m por segundo",
             *(f"{word} per second" for word in _METRE),
             *(f"{word} por segundo" for word in _METRE)),
    _spelled("mph", "miles per hour", "mi/h", "mile per hour", "miles an hour",
             "millas por hora"),
    _spelled("g", "grams", "gram", "gramme", "grammes", "gramos", "gramo"),
    _spelled("kg", "kilograms", "kilogram", "kilogramme", "kilogrammes", "kilogramos",
             "kilogramo", "kilos", "kilo"),
    _spelled("lb", "pounds", "lbs", "pound", "libras", "libra"),
    DEGREES,
    _spelled("rad", "radians", "radian", "rads", "radianes", "radián", "radian"),
    PERCENT,
    _spelled("dollars", "dollars", "dollar", "usd", "dólares", "dólar", "dolares", "dolar"),
    _spelled("€", "euros", "euro", "eur"),
    _spelled("cents", "cents", "cent", "¢", "centavos", "centavo", "céntimos", "céntimo"),
)

_WRAPPER = re.compile(r"\\(?:text|textrm|textnormal|mathrm|mbox|rm)\s*\{([^{}]*)\}")
_NUMBER_END = re.compile(r"[\d)\]}]|pi\b")
_SPACING = re.compile(r"\s+|\\[,;:! ()\[\]]|~|\$")
_LONGEST_TAIL = 48
"""How far from the end a number may stop and still be followed by a unit (spacing included)."""


def _spelling(text: str) -> str:
    """`text` without LaTeX spacing or math delimiters, single-spaced, with km / h as km/h."""
    return re.sub(r" ?/ ?", "/", " ".join(_SPACING.sub(" ", text).split()))


def _key(spelling: str) -> str:
    """The lookup key of a spelling: any case, except that a single letter keeps its case."""
    spelled = _spelling(spelling)
    return spelled if len(spelled) == 1 else spelled.lower()


def _pattern(spelling: str) -> str:
    """A regex for one spelling, with any spacing between words and around '/'."""
    words = r"\s*/\s*".join(r"\s+".join(map(re.escape, part.split())) for part in
                            spelling.split("/"))
    return words if len(spelling) == 1 else f"(?i:{words})"


_BY_SPELLING = {_key(spelling): unit for unit in UNITS for spelling in unit.spellings}
_ANY_SPELLING = "|".join(_pattern(spelling)
                         for spelling in sorted(_BY_SPELLING, key=len, reverse=True))
_UNIT_AT_START = re.compile(rf"\s*(?:{_ANY_SPELLING})(?![A-Za-z])")


def find_unit(name: str) -> Unit | None:
    """Return the known unit `name` spells (km/h, kph, degrees, %...), or None."""
    return _BY_SPELLING.get(_key(name))


def known_units() -> str:
    """The symbols of every known unit, for messages that list them."""
    return ", ".join(unit.symbol for unit in UNITS)


def require_unit(name: str | None) -> Unit | None:
    """Return the unit a step names (None for none), raising ReadError for an unknown one."""
    if name is None:
        return None
    unit = find_unit(name)
    if unit is None:
        raise ReadError(Said(N_("The unit '{name}' isn't one I know; I know {units}."),
                             name=name, units=known_units()))
    return unit


def without_unit(core: str, unit: Unit | None, *, radians: bool = False) -> str:
    """Return `core` without the step's `unit` after its number; refuse any other unit.

    With no unit named, percent and single letters are left to the parser: 75% means 3/4,
    and whether 5 m is 5 times m depends on the gold (see `refuse_letter_after_number`);
    a degree sign is dropped, unless the answer is in `radians` (its gold has pi).
    """
    unwrapped = _WRAPPER.sub(r" \1 ", core)
    found = _trailing_unit(unwrapped)
    if found is None:
        return core
    number_end, written, spelled = found
    if written is unit or (unit is None and written is DEGREES and not radians):
        return unwrapped[:number_end]
    if unit is None and (written is PERCENT or (len(spelled) == 1 and spelled.isalpha())):
        return unwrapped
    raise ReadError(wrong_unit_reason(spelled, written, unit))


def _trailing_unit(text: str) -> tuple[int, Unit, str] | None:
    """Where the number in `text` ends, the unit written after it, and how it is spelled."""
    ends = [found.end() for found in
            _NUMBER_END.finditer(text, max(0, len(text) - _LONGEST_TAIL))]
    for end in reversed(ends):
        spelled = _spelling(text[end:])
        written = find_unit(spelled) if spelled else None
        if written is not None:
            return end, written, spelled
        if text[end - 1].isdigit():
            return None
    return None


def unit_length_at(text: str, start: int) -> int:
    """Return how many characters of `text` from `start` spell a unit (0 if none does)."""
    found = _UNIT_AT_START.match(text, start)
    return found.end() - start if found else 0


def refuse_letter_after_number(tokens: Sequence[Token], unit: Unit | None) -> None:
    """Raise ReadError for a letter right after a number, as in 5 m or 3x (gold has no letters)."""
    for before, token in pairwise(tokens):
        if token.kind is Kind.VARIABLE and before.kind in (Kind.NUMBER, Kind.CONSTANT, Kind.CLOSE):
            written = find_unit(token.text)
            if written is not None and written is not unit:
                raise ReadError(wrong_unit_reason(token.text, written, unit))
            raise ReadError(Said(
                N_("I read a letter, '{letter}', right after '{before}'. The expected answer "
                   "has no letters, so I won't guess what it means: give just the number."),
                letter=token.text, before=before.text,
            ))


def wrong_unit_reason(spelled: str, written: Unit, unit: Unit | None) -> str:
    """Explain that the unit written is not the one this answer takes (or that it takes none)."""
    shown: str = f"'{spelled}'"
    if spelled.isalpha():
        shown = Said(N_("the letter '{text}'") if len(spelled) == 1 else N_("the word '{text}'"),
                     text=spelled)
    if unit is None and written is DEGREES:
        return Said(N_("This answer is not in degrees, so I can't read {shown} ({name}) after "
                       "the number; give just the number."), shown=shown, name=written.name)
    if unit is None:
        return Said(N_("This answer takes no unit, so I can't read {shown} ({name}) after the "
                       "number; give just the number."), shown=shown, name=written.name)
    return Said(N_("This answer is in {unit}, but I read {shown} ({name}). Give it in {unit}, "
                   "or give just the number."), unit=unit.symbol, shown=shown, name=written.name)
