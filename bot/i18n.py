"""The bot's words in a language: gettext catalogs for text, Babel for numbers and dates.

Every member-facing string goes through `_` (or `ngettext` where it has a plural), with its
placeholders by name: `_("{count} answered", count=n)`. A string defined at import time is
marked with `N_` and translated where it is shown: `_(LABEL)`. A field is a bare name and
nothing else (no attribute, index or format spec): a translation that tries more is refused
and its source shown instead, and values are filled as plain text, never read as fields.

The language is the context's: `speaking("es")` sets it for a block (and the tasks it starts).
A member's private replies speak the member's locale (`reading` sets it for their request, and
keeps it for `to_reader` and `reader_locale` where a run's turn speaks the run's language); a
run's channel posts speak the run's language. Log lines and the CSV's column names stay
English: machines and operators read them.

A message names a lesson command as `{command:stop}` (`{command:}` for the command itself);
`_` fills it with what a member types for it here: `/lesson stop` by default, or what the
platform set with `name_commands` (Discord shows its commands in the member's language).

The catalogs live in `bot/locale/<language>/LC_MESSAGES/messages.po`, compiled to `.mo` beside
it (`make messages` extracts and updates them, `make compile-messages` compiles them).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from decimal import Decimal, localcontext
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

COMMAND_FIELD = "{command:"
"""How a message names a lesson command: `{command:<verb>}`."""

_speaking: ContextVar[str] = ContextVar("speaking", default=SOURCE_LANGUAGE)
_reader: ContextVar[tuple[str, str | None] | None] = ContextVar("reader", default=None)
"""The language of the member a request came from, and their locale as their platform named
it (None where it is not known); None outside a member's request (a timer, play mode)."""


def typed_command(verb: str) -> str:
    """A lesson command as typed where commands keep their English names: `/lesson stop`."""
    return f"/lesson {verb}".rstrip()


_command_namer: ContextVar[Callable[[str], str]] = ContextVar(
    "command_namer", default=typed_command
)


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


@contextmanager
def reading(locale: str | None) -> Iterator[str]:
    """Answer the member a request came from, whose platform names `locale` (None: not known).

    The block speaks their language (English where it is not known), and keeps it for
    `to_reader` and their locale for `reader_locale` while a run's language is spoken inside.
    """
    with speaking(locale) as language:
        token = _reader.set((language, locale))
        try:
            yield language
        finally:
            _reader.reset(token)


def reader_locale() -> str | None:
    """The locale of the member the current request came from; None where it is not known."""
    reader = _reader.get()
    return reader[1] if reader is not None else None


@contextmanager
def to_reader() -> Iterator[str]:
    """Speak the language of the member the request came from, also inside a run's turn.

    What a host is told their verb did is decided in the run's turn, which speaks the run's
    language. Outside a member's request, the block speaks the current language.
    """
    reader = _reader.get()
    with speaking(reader[0] if reader is not None else current_language()) as language:
        yield language


def N_(message: str) -> str:
    """Mark a string for the catalog without translating it yet (translate it where shown)."""
    return message


def command(verb: str = "") -> str:
    """The lesson command `verb` as a member types it here, in the current language."""
    return _command_namer.get()(verb)


FIELD = re.compile(r"\{\{|\}\}|\{(?P<name>[A-Za-z_]\w*)(?P<verb>:[a-z-]*)?\}|[{}]")
"""What a message's braces may hold: `{{` and `}}`, a bare `{name}`, or `{command:verb}`."""


class UnsafeMessage(ValueError):
    """A message with a field other than a bare `{name}` or `{command:verb}`, or a stray brace."""


def name_commands(namer: Callable[[str], str]) -> None:
    """Name lesson commands with `namer` in this context and the tasks it starts."""
    _command_namer.set(namer)


def message_fields(message: str) -> list[str]:
    """The fields of a message (`count`, `command:stop`); `UnsafeMessage` if any other is there.

    Attributes, indexes, conversions and format specs are refused: a catalog is written by
    translators, and a field like `{values.__class__}` would read the bot's own objects.
    """
    return [field for match in FIELD.finditer(message) if (field := _field(match, message))]


def _field(match: re.Match[str], message: str) -> str:
    """One brace of a message: its field (`name` or `command:verb`), or "" for `{{` and `}}`."""
    name, verb = match.group("name"), match.group("verb")
    if match.group(0) in ("{{", "}}"):
        return ""
    if name is None or (verb is not None and name != "command"):
        raise UnsafeMessage(f"unsafe field {match.group(0)!r} in {message!r}")
    return name + (verb or "")


def fill(message: str, values: Mapping[str, object]) -> str:
    """`message` with its fields filled as plain text: `{name}` from `values`, commands named.

    Only bare names and `{command:verb}` are filled (`UnsafeMessage` otherwise); a missing
    value is a `KeyError`.
    """
    message_fields(message)

    def filled(match: re.Match[str]) -> str:
        name, verb = match.group("name"), match.group("verb")
        if name is None:
            return match.group(0)[0]
        if verb is not None or (name == "command" and name not in values):
            return command((verb or ":")[1:])
        return str(values[name])

    return FIELD.sub(filled, message)


def _filled(translated: str, source: str, values: dict[str, object]) -> str:
    """A translation filled, or its source where the translation's fields are unsafe."""
    try:
        return _filled_one(translated, values)
    except UnsafeMessage:
        return _filled_one(source, values)


def _filled_one(message: str, values: dict[str, object]) -> str:
    """`message` filled; one with no values and no command is shown as written, braces and all."""
    return fill(message, values) if values or COMMAND_FIELD in message else message


def _(message: str, /, **values: object) -> str:
    """`message` in the current language, its `{name}` placeholders filled from `values`."""
    return _filled(catalog(_speaking.get()).gettext(message), message, values)


def ngettext(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The singular or plural form for `count` in the current language, placeholders filled.

    `{count}` is filled with the count itself unless `values` says otherwise.
    """
    text = catalog(_speaking.get()).ngettext(singular, plural, count)
    return _filled(text, singular if count == 1 else plural, {"count": count, **values})


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


def decimal(
    value: float | Decimal,
    digits: int = 2,
    *,
    fixed: bool = False,
    signed: bool = False,
    grouped: bool = True,
) -> str:
    """A number in the current language ("3.5", "3,5"), up to `digits` decimals.

    `fixed` always writes `digits` decimals ("0.50"); `signed` writes a plus sign too ("+0.50");
    without `grouped`, thousands are not grouped ("2500,5", never "2.500,5"). A `Decimal` is
    written exactly, however many digits it has.
    """
    pattern = ("#,##0" if grouped else "0") + ("." + ("0" if fixed else "#") * digits
                                               if digits else "")
    if signed:
        pattern = f"+{pattern};-{pattern}"
    with localcontext(prec=max(28, len(str(value)) + digits)):
        return babel_numbers.format_decimal(value, pattern, locale=_babel_locale())


def day(moment: date | datetime) -> str:
    """A date in the current language, medium length ("Dec 5, 2026", "5 dic 2026")."""
    return babel_dates.format_date(moment, "medium", locale=_babel_locale())
