"""The languages a run can speak, as offered to hosts and named by places; a member's own."""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

from bot.engine import LessonCatalog, run_languages
from bot.model import RunRecord, UnknownLesson


def base_language(locale: str | None) -> str:
    """A locale's language code ("es-ES", "es_419" and "es" are "es"); empty for none."""
    return (locale or "").replace("_", "-").split("-")[0].strip().lower()


def language_name(code: str) -> str:
    """A language's name in itself ("español"), or its code where Babel knows no name."""
    try:
        return Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code


def language_choices(
    catalog: LessonCatalog, lesson_id: str | None, typed: str = ""
) -> list[tuple[str, str]]:
    """A lesson's run languages whose code or name starts with `typed`: ("es", "es · español").

    An unknown lesson offers the default lesson's.
    """
    try:
        offered = run_languages(catalog, lesson_id)
    except UnknownLesson:
        offered = run_languages(catalog)
    start = typed.strip().lower()
    return [(code, f"{code} · {language_name(code)}") for code in offered
            if code.startswith(start) or language_name(code).lower().startswith(start)]


def member_language(locale: str | None, run: RunRecord) -> str:
    """The language of what a timer sends a member alone: theirs as last seen, else the run's.

    `locale` is what their platform was last seen set to; None if they were never seen.
    """
    return locale if locale is not None else run.language
