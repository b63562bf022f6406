"""Numbers written with a decimal comma, in a language that writes one (Spanish: 3,5 is 3.5).

The answer's text is rewritten into the checker's own notation (a decimal point, no thousands
separators) by the patterns below, before it is read as usual; nothing here evaluates it. A
number that can be read two ways gives two texts, and the grading decides which to trust:

* A comma followed by anything but exactly three digits is a decimal comma: 3,5 is 3.5,
  -0,25 is -0.25, 3,50 is 3.5, 1234,567 is 1234.567 (too many digits before the comma for a
  thousands group) and 0,500 is 0.5 (no thousands group is 0). LaTeX's 3{,}5 is 3.5 too.
* Thousands grouped with points, spaces or \\, before a decimal comma: 1.234,5 and 1 234,5 are
  1234.5. Points grouping thousands more than once (1.234.567) are thousands.
* Commas grouping thousands more than once, or before a decimal point (1,234,567; 1,234.5),
  are thousands, as in English.
* One to three digits (not 0), a comma and exactly three digits (1,234) is ambiguous: 1.234
  or 1234. Neither reading is preferred: when only one is right, the member is asked which they
  meant, never graded; when both are wrong, the answer is wrong.
* A point is a decimal point, as in English; 1.234 (one to three digits, not 0, a point, three
  digits) is 1.234, but when only 1234 would be right the member is asked which they meant.
* A comma between digits may also separate values. Against one value, a number with a decimal
  comma alone in brackets, such as (1,2), is refused (a point or the number 1.2?). Against a
  gold with several values, "1,5" is both {1.5} and {1, 5}, and is asked about when only one
  is right. Values separated by semicolons or ±, with no comma outside a number, settle it:
  (1,5; 2) is the point (1.5, 2), [0; 1,5) an interval and ±1,5 is ±1.5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMA = r"(?:,|\{,\})"
_NUMBER = re.compile(
    r"(?<![\d.,])(?<!\{,\})(?:"
    rf"(?P<grouped>\d{{1,3}}(?P<group>[. ]|\\,)\d{{3}}(?:(?P=group)\d{{3}})*{_COMMA}\d+)"
    rf"|(?P<thousands>\d{{1,3}}(?P<comma>{_COMMA})\d{{3}}"
    r"(?:(?:(?P=comma)\d{3})+(?:\.\d+)?|\.\d+))"
    r"|(?P<points>[1-9]\d{0,2}(?:\.\d{3}){2,})"
    rf"|(?P<ambiguous>[1-9]\d{{0,2}}{_COMMA}\d{{3}})"
    rf"|(?P<decimal>\d+{_COMMA}\d+)"
    r"|(?P<point>[1-9]\d{0,2}\.\d{3})"
    r")(?!\d|[.,]\d|\{,\}\d|\\,\d)"
)
_LAST_COMMA = re.compile(rf"(.*){_COMMA}(\d+)")
_GROUP_SEPARATOR = re.compile(r"[. ]|\\,")
_BARE_COMMA = re.compile(r"(?<!\\),")
_SEMICOLON = re.compile(r"(?<!\\);")
"""A semicolon between values (not LaTeX's \\; space)."""
_OTHER_SEPARATOR = re.compile(r"(?<!\\);|±|∓|\\(?:pm|mp)(?![A-Za-z])|\+/?-")
_WITH_DECIMAL_COMMA = frozenset({"grouped", "ambiguous", "decimal"})
"""The kinds of number whose comma is read as a decimal comma (in one reading at least)."""


@dataclass(frozen=True)
class DecimalCommaReadings:
    """The texts an answer with decimal commas may mean, in the checker's own notation.

    `texts[0]` reads every comma that can be a decimal comma as one; `texts[1]`, if any,
    reads the ambiguous numbers (1,234 and 1.234) as whole numbers instead. `first_decides`
    says whether the first is the usual reading (right means right) or only one of two
    equally likely ones; `comma_may_separate`, whether a decimal comma might instead separate
    values, as in (1,2).
    """

    texts: tuple[str, ...]
    first_decides: bool
    comma_may_separate: bool


def decimal_comma_readings(text: str, *, several: bool = False) -> DecimalCommaReadings:
    """Rewrite a normalised answer's decimal commas as points, in every way it may be meant.

    With `several` (a gold with several values), values separated by semicolons or ± with
    no other comma make every comma between digits a decimal comma, and semicolons commas.
    """
    kinds = {found.lastgroup for found in _NUMBER.finditer(text)} - {None, "group", "comma"}
    as_decimals = _NUMBER.sub(lambda found: _rewritten(found, whole=False), text)
    as_wholes = _NUMBER.sub(lambda found: _rewritten(found, whole=True), text)
    settled = several and _separated_otherwise(text)
    if settled:
        as_decimals, as_wholes = (_SEMICOLON.sub(", ", part) for part in (as_decimals, as_wholes))
    texts = (as_decimals,) if as_wholes == as_decimals else (as_decimals, as_wholes)
    return DecimalCommaReadings(
        texts,
        first_decides="ambiguous" not in kinds,
        comma_may_separate=not settled and bool(kinds & _WITH_DECIMAL_COMMA),
    )


def _separated_otherwise(text: str) -> bool:
    """Tell whether values are separated by semicolons or ±, and no comma is outside a number."""
    return bool(_OTHER_SEPARATOR.search(text)) and not _BARE_COMMA.search(_NUMBER.sub(" ", text))


def _rewritten(found: re.Match[str], *, whole: bool) -> str:
    """One number in the checker's notation; `whole` reads 1,234 and 1.234 as 1234."""
    number, kind = found.group(), found.lastgroup
    if kind == "grouped":
        integer, fraction = _split_at_comma(number)
        return _GROUP_SEPARATOR.sub("", integer) + "." + fraction
    if kind == "points" or (whole and kind in ("ambiguous", "point")):
        return re.sub(r"\D", "", number)
    if kind in ("ambiguous", "decimal"):
        integer, fraction = _split_at_comma(number)
        return f"{integer}.{fraction}"
    return number


def _split_at_comma(number: str) -> tuple[str, str]:
    """What comes before and after the decimal comma (the last comma) of a number: 1.234,5."""
    found = _LAST_COMMA.fullmatch(number)
    assert found is not None
    return found.group(1), found.group(2)
