"""The bot's words in a language: gettext catalogs for text, Babel for numbers and dates.

Every member-facing string goes through `_` (or `ngettext` where it has a plural), with its
placeholders by name: `_("{count} answered", count=n)`. A string defined at import time is
marked with `N_` and translated where it is shown: `_(LABEL)`.

The language is the context's: `speaking("es")` sets it for a block (and the tasks it starts).
A member's private replies speak the member's locale; a run's channel posts speak the run's
language. Log lines and the CSV's column names stay English: machines and operators read them.

The catalogs live in `bot/locale/<language>/LC_MESSAGES/messages.po`, compiled to `.mo` beside
it (`make messages` extracts and updates them, `make compile-messages` compiles them).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel import dates as babel_dates
from babel import numbers as babel_numbers
from babel.support import Translations

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
"""The language the bot's strings are written in: it needs no catalog."""

_speaking: ContextVar[str] = ContextVar("speaking", default=SOURCE_LANGUAGE)


@cache
def available_languages() -> tuple[str, ...]:
    """The languages the bot can speak: English, then each one with a compiled catalog."""
    compiled = sorted(
        path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
    )
    return (SOURCE_LANGUAGE, *compiled)


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of `language` (no catalog: the strings as written)."""
    if language == SOURCE_LANGUAGE or language not in available_languages():
        return gettext.NullTranslations()
    return Translations.load(str(LOCALE_DIR), [language], DOMAIN)


def language_of(locale: str | None) -> str:
    """The bot language for a platform locale ("es-ES", "es_419", "es"), else English."""
    if not locale:
        return SOURCE_LANGUAGE
    base = locale.replace("_", "-").split("-")[0].lower()
    return base if base in available_languages() else SOURCE_LANGUAGE


def current_language() -> str:
    """The language the current context speaks."""
    return _speaking.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak `language` (a bot language or a platform locale) inside the block."""
    token = _speaking.set(language_of(language))
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


def N_(message: str) -> str:
    """Mark a string for the catalog without translating it yet (translate it where shown)."""
    return message


def _(message: str, /, **values: object) -> str:
    """`message` in the current language, its `{name}` placeholders filled from `values`."""
    text = catalog(_speaking.get()).gettext(message)
    return text.format(**values) if values else text


def ngettext(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The singular or plural form for `count` in the current language, placeholders filled.

    `{count}` is filled with the count itself unless `values` says otherwise.
    """
    text = catalog(_speaking.get()).ngettext(singular, plural, count)
    return text.format(**{"count": count, **values})


def _babel_locale() -> Locale:
    """The Babel locale of the current language."""
    try:
        return Locale.parse(_speaking.get())
    except (ValueError, UnknownLocaleError):
        return Locale.parse(SOURCE_LANGUAGE)


def percent(fraction: float, digits: int = 0) -> str:
    """A fraction as a percentage in the current language ("50%", "50 %")."""
    locale = _babel_locale()
    pattern = locale.percent_formats[None].pattern
    if digits:
        whole = pattern.rindex("0")
        pattern = pattern[: whole + 1] + "." + "0" * digits + pattern[whole + 1 :]
    return babel_numbers.format_percent(fraction, pattern, locale=locale)


def decimal(value: float, digits: int = 2) -> str:
    """A number in the current language ("3.5", "3,5"), up to `digits` decimals."""
    pattern = "#,##0" + ("." + "#" * digits if digits else "")
    return babel_numbers.format_decimal(value, pattern, locale=_babel_locale())


def day(moment: date | datetime) -> str:
    """A date in the current language, medium length ("Dec 5, 2026", "5 dic 2026")."""
    return babel_dates.format_date(moment, "medium", locale=_babel_locale())
