"""The languages the checker reads answers in, and which of them write a decimal comma.

An answer is read in the language of the run it was given in: in English ``3,5`` is not a
number (a comma between digits separates thousands or values), in Spanish it is 3.5. See
`decimal_comma.py` for exactly how a decimal comma is read. Gold answers are the lesson's
own and are read the same in every language, with a decimal point.
"""

from __future__ import annotations

LANGUAGES = ("en", "es")
"""The language codes the checker knows; "en" is the default everywhere."""

DECIMAL_COMMA = frozenset({"es"})
"""Languages that write a decimal comma (3,5) and read a point as a decimal point too."""


def require_language(language: str) -> str:
    """Return `language` if the checker knows it, else raise ValueError naming those it does."""
    if language not in LANGUAGES:
        raise ValueError(f"The checker reads answers in {', '.join(LANGUAGES)}, "
                         f"not {language!r}.")
    return language


def writes_decimal_comma(language: str) -> bool:
    """Tell whether answers in `language` may write a decimal comma, as in 3,5."""
    return language in DECIMAL_COMMA


def checker_language(language: str) -> str:
    """The language the checker reads a run's answers in: the run's, if it knows it, else "en"."""
    return language if language in LANGUAGES else "en"
