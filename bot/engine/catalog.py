"""The lessons a bot can run, loaded once and looked up by id (and language)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import available_languages
from bot.model.errors import UnknownLesson
from lessons.loader import (
    LESSON_DIR,
    available_lessons,
    available_translations,
    load_lesson_file,
    load_translation,
)
from lessons.schema import Lesson

DEFAULT_LESSON = "rlvr"


class LessonCatalog:
    """Lessons from a folder of YAML files, parsed on first use and kept.

    A lesson may have translations beside it (`rlvr.es.yaml`); `get` gives one when asked
    for its language, checked against the lesson it translates.
    """

    def __init__(self, directory: Path = LESSON_DIR, default: str = DEFAULT_LESSON) -> None:
        self.directory = directory
        self.default = default
        self._loaded: dict[str, Lesson] = {}
        self._translated: dict[tuple[str, str], Lesson] = {}

    def ids(self) -> list[str]:
        """Ids of every lesson in the folder (translations are not lessons of their own)."""
        return list(available_lessons(self.directory))

    def get(self, lesson_id: str | None = None, language: str | None = None) -> Lesson:
        """A lesson by id (the default when None), in `language` if translated, else its own.

        Raise `UnknownLesson` if there is no such lesson.
        """
        wanted = lesson_id or self.default
        if wanted not in self._loaded:
            files = available_lessons(self.directory)
            if wanted not in files:
                raise UnknownLesson(wanted, list(files))
            self._loaded[wanted] = load_lesson_file(files[wanted])
        source = self._loaded[wanted]
        if language is None or language == source.language:
            return source
        return self._translation(wanted, language) or source

    def languages(self, lesson_id: str | None = None) -> list[str]:
        """The languages a lesson can be had in: its own first, then its translations'."""
        wanted = lesson_id or self.default
        own = self.get(wanted).language
        translated = available_translations(wanted, self.directory)
        return [own, *(code for code in translated if code != own)]

    def add(self, lesson: Lesson) -> None:
        """Make an already loaded lesson available (a file given on the command line)."""
        self._loaded[lesson.id] = lesson
        self._translated = {key: kept for key, kept in self._translated.items()
                            if key[0] != lesson.id}

    def suggest(self, prefix: str) -> list[str]:
        """Lesson ids starting with what was typed, for autocomplete."""
        return [lesson_id for lesson_id in self.ids() if lesson_id.startswith(prefix.lower())]

    def _translation(self, lesson_id: str, language: str) -> Lesson | None:
        """A loaded lesson's translation into `language` from the folder, if there is one."""
        key = (lesson_id, language)
        if key not in self._translated:
            path = available_translations(lesson_id, self.directory).get(language)
            if path is None:
                return None
            self._translated[key] = load_translation(path, self._loaded[lesson_id])
        return self._translated[key]


def run_languages(catalog: LessonCatalog, lesson_id: str | None = None) -> list[str]:
    """The languages a run of a lesson can speak: those the lesson and the bot both have.

    The lesson's own language comes first, and is the one left where the bot has none of them.
    """
    lesson_languages = catalog.languages(lesson_id)
    spoken = [code for code in lesson_languages if code in available_languages()]
    return spoken or lesson_languages[:1]
