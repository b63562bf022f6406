"""Numbers in Spanish words (cero to mil) and simple fractions in words, written as digits.

English whole numbers are read in words.py. Here: Spanish whole numbers ("tres", "veintiuno",
"treinta y cinco", "ciento cinco", "mil"), and a fraction named by a count of one to ten and
a denominator from a half to a tenth ("tres cuartos", "un medio", "three quarters", "a
third"), written as a bracketed fraction such as (3/4). Only words are matched; nothing is
evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import partial

_SPANISH_UNITS = {
    "cero": 0, "uno": 1, "un": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5,
    "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12,
    "trece": 13, "catorce": 14, "quince": 15, "dieciséis": 16, "dieciseis": 16,
    "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "veintiuno": 21,
    "veintiún": 21, "veintiun": 21, "veintiuna": 21, "veintidós": 22, "veintidos": 22,
    "veintitrés": 23, "veintitres": 23, "veinticuatro": 24, "veinticinco": 25,
    "veintiséis": 26, "veintiseis": 26, "veintisiete": 27, "veintiocho": 28, "veintinueve": 29,
}
_SPANISH_TENS = {"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70,
                 "ochenta": 80, "noventa": 90}
_SPANISH_HUNDREDS = {
    "ciento": 100, "doscientos": 200, "doscientas": 200, "trescientos": 300,
    "trescientas": 300, "cuatrocientos": 400, "cuatrocientas": 400, "quinientos": 500,
    "quinientas": 500, "seiscientos": 600, "seiscientas": 600, "setecientos": 700,
    "setecientas": 700, "ochocientos": 800, "ochocientas": 800, "novecientos": 900,
    "novecientas": 900,
}
_SPANISH_VALUES = {**_SPANISH_UNITS, **_SPANISH_TENS, **_SPANISH_HUNDREDS, "cien": 100, "mil": 1000}


def _either(words: Iterable[str]) -> str:
    """A regex alternation of words, longest first (so 'veintiuno' wins over 'veinti...')."""
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


_ONE_TO_NINE = _either(word for word, value in _SPANISH_UNITS.items() if 1 <= value <= 9)
_BELOW_HUNDRED = (rf"(?:(?:{_either(_SPANISH_TENS)})(?:\s+y\s+(?:{_ONE_TO_NINE}))?"
                  rf"|{_either(_SPANISH_UNITS)})")
_SEVERAL_HUNDRED = _either(word for word, value in _SPANISH_HUNDREDS.items() if value > 100)
_SPANISH_PHRASE = (rf"(?:mil|ciento\s+{_BELOW_HUNDRED}"
                   rf"|(?:{_SEVERAL_HUNDRED})(?:\s+{_BELOW_HUNDRED})?|cien|{_BELOW_HUNDRED})")
_EDGES = r"(?<![\w\\.,]){phrase}(?!\w|[.,]\d)"
_SPANISH = re.compile(_EDGES.format(phrase=_SPANISH_PHRASE), re.IGNORECASE)

_COUNTS = {
    "en": {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10},
    "es": {word: value for word, value in _SPANISH_UNITS.items() if 1 <= value <= 10},
}
_DENOMINATORS = {
    "en": {"half": 2, "halves": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5,
           "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10},
    "es": {"medio": 2, "media": 2, "tercio": 3, "cuarto": 4, "quinto": 5, "sexto": 6,
           "séptimo": 7, "septimo": 7, "octavo": 8, "noveno": 9, "décimo": 10, "decimo": 10},
}
"""Denominators in words; a plural adds s (halves and medias are listed or follow the rule)."""


def _fraction_pattern(language: str) -> re.Pattern[str]:
    """The pattern of 'three quarters' (or 'tres cuartos') in `language`."""
    counts, denominators = _either(_COUNTS[language]), _either(_DENOMINATORS[language])
    phrase = rf"(?P<count>{counts})[-\s]+(?P<denominator>{denominators})s?"
    return re.compile(_EDGES.format(phrase=phrase), re.IGNORECASE)


_FRACTIONS = {language: _fraction_pattern(language) for language in _COUNTS}


def spell_fractions(text: str, language: str) -> str:
    """Write fractions in words as (3/4): 'three quarters', and in Spanish 'tres cuartos'."""
    for each in dict.fromkeys(["en", language]):
        if each in _FRACTIONS:
            text = _FRACTIONS[each].sub(partial(_fraction, each), text)
    return text


def _fraction(language: str, found: re.Match[str]) -> str:
    """One fraction in words, written as (count/denominator)."""
    count = _COUNTS[language][found["count"].lower()]
    return f"({count}/{_DENOMINATORS[language][found['denominator'].lower()]})"


def spell_spanish(text: str) -> str:
    """Write Spanish whole numbers in words (cero to mil) as digits: 'treinta y cinco' as 35."""
    return _SPANISH.sub(lambda found: str(_spanish_value(found.group())), text)


def _spanish_value(phrase: str) -> int:
    """The value of a Spanish number phrase: the sum of its words' values ('y' adds nothing)."""
    return sum(_SPANISH_VALUES[word] for word in phrase.lower().split() if word != "y")
