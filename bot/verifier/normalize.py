"""Unicode clean-up so that what is graded is exactly what a reader sees."""

from __future__ import annotations

import re
import unicodedata

from bot.i18n import N_
from bot.verifier.errors import ReadError
from bot.verifier.limits import PREVIEW_CHARS
from bot.verifier.said import Said

DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Characters that reorder or re-direct how text is displayed; always refused."""

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
"""Invisible characters that change nothing visible; silently removed."""

MINUS_SIGNS = "\u2212\u2010\u2011\u2012\u2013\ufe63\uff0d\u02d7\u2796"
"""Characters people (and keyboards) use for a minus sign."""

_SYMBOLS = {"×": "*", "÷": "/", "·": "*", "⋅": "*", "∗": "*", "⁄": "/", "√": " sqrt ", "π": " pi "}
_TRANSLATION = str.maketrans(
    {**dict.fromkeys(ZERO_WIDTH, None), **dict.fromkeys(MINUS_SIGNS, "-"), **_SYMBOLS}
)
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾", "0123456789+-()")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾]+")
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def normalize_text(text: str) -> str:
    """Return `text` NFKC-normalised with plain minus signs; raise ReadError if it hides things."""
    reject_direction_controls(text)
    text = _spell_out_superscripts(text)
    text = _wrap_vulgar_fractions(text)
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATION)
    reject_hidden_characters(text)
    return text


def reject_direction_controls(text: str) -> None:
    """Raise ReadError if `text` holds characters that change the display order of text."""
    if any(char in DIRECTION_CONTROLS for char in text):
        raise ReadError(N_(
            "That contains hidden text-direction characters, which can make it display "
            "differently from what it says. Please type it again plainly."
        ))


def reject_hidden_characters(text: str) -> None:
    """Raise ReadError if `text` still holds invisible control or formatting characters."""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" or (category == "Cc" and char not in _ALLOWED_CONTROLS):
            raise ReadError(Said(
                N_("That contains a hidden character ({code}). Please type your answer again "
                   "plainly."), code=f"U+{ord(char):04X}",
            ))


def _spell_out_superscripts(text: str) -> str:
    """Turn superscript runs such as x² into x^(2) before NFKC would flatten them to x2."""
    return _SUPERSCRIPT_RUN.sub(_superscript_as_power, text)


def _superscript_as_power(match: re.Match[str]) -> str:
    """Rewrite one run of superscript characters as an explicit power."""
    return "^(" + match.group(0).translate(_SUPERSCRIPT_DIGITS) + ")"


def _wrap_vulgar_fractions(text: str) -> str:
    """Bracket characters such as ½ so they read as (1/2); refuse mixed numbers like 1½."""
    pieces: list[str] = []
    for index, char in enumerate(text):
        if not _is_vulgar_fraction(char):
            pieces.append(char)
            continue
        if index and text[index - 1].isdigit():
            raise ReadError(Said(N_("Write a mixed number like 1{fraction} as a fraction (3/2) or "
                                    "a decimal."), fraction=char))
        pieces.append("(" + unicodedata.normalize("NFKC", char) + ")")
    return "".join(pieces)


def _is_vulgar_fraction(char: str) -> bool:
    """Tell whether `char` is a single-character fraction such as ½ or ⅔."""
    return not char.isascii() and "\u2044" in unicodedata.normalize("NFKC", char)


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """Return a short, display-safe version of untrusted `text` for messages."""
    visible = "".join(char for char in text[: limit * 4] if _is_visible(char))
    visible = " ".join(visible.split())
    if len(visible) > limit or len(text) > limit * 4:
        return visible[: limit - 1].rstrip() + "…"
    return visible


def _is_visible(char: str) -> bool:
    """Tell whether `char` shows on screen as itself (not a control or formatting mark)."""
    return unicodedata.category(char) not in ("Cc", "Cf") or char in " \t\n"
