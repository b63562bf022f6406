"""The lessons a bot can run, loaded once and looked up by id."""

from __future__ import annotations

from pathlib import Path

from bot.model.errors import UnknownLesson
from lessons.loader import LESSON_DIR, available_lessons, load_lesson_file
from lessons.schema import Lesson

DEFAULT_LESSON = "rlvr"


class LessonCatalog:
    """Lessons from a folder of YAML files, parsed on first use and kept."""

    def __init__(self, directory: Path = LESSON_DIR, default: str = DEFAULT_LESSON) -> None:
        self.directory = directory
        self.default = default
        self._loaded: dict[str, Lesson] = {}

    def ids(self) -> list[str]:
        """Ids of every lesson in the folder."""
        return list(available_lessons(self.directory))

    def get(self, lesson_id: str | None = None) -> Lesson:
        """A lesson by id (the default one when None); raise `UnknownLesson` if missing."""
        wanted = lesson_id or self.default
        if wanted not in self._loaded:
            files = available_lessons(self.directory)
            if wanted not in files:
                raise UnknownLesson(wanted, list(files))
            self._loaded[wanted] = load_lesson_file(files[wanted])
        return self._loaded[wanted]

    def add(self, lesson: Lesson) -> None:
        """Make an already loaded lesson available (a file given on the command line)."""
        self._loaded[lesson.id] = lesson

    def suggest(self, prefix: str) -> list[str]:
        """Lesson ids starting with what was typed, for autocomplete."""
        return [lesson_id for lesson_id in self.ids() if lesson_id.startswith(prefix.lower())]
