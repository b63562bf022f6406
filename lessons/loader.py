"""Reading lesson files: YAML in, a validated `Lesson` out, or errors naming where and what.

A lesson's source is `<id>.yaml`; a translation is `<id>.<language>.yaml` beside it
(`rlvr.es.yaml`), with the same steps, choices, answers and attempts in other words.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from lessons.schema import LANGUAGE_CODE, Lesson
from lessons.translation import translation_problems

try:  # PyYAML's safe loader in C (libyaml) where installed: lessons parse several times faster
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - a PyYAML built without libyaml
    from yaml import SafeLoader  # type: ignore[assignment]

LESSON_DIR = Path(__file__).resolve().parent
_TRANSLATION_FILE = re.compile(rf"^(?P<id>[^.]+)\.(?P<language>{LANGUAGE_CODE})\.yaml$")


class LessonError(Exception):
    """A lesson file that cannot be used; the message names the file, the step and the field."""

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.path = str(path)
        self.problems = problems
        super().__init__("\n".join(f"{self.path}: {problem}" for problem in problems))


def available_lessons(directory: Path = LESSON_DIR) -> dict[str, Path]:
    """Lesson ids mapped to their source files: the file name without `.yaml`.

    Translations (`rlvr.es.yaml`) are not lessons of their own: see `available_translations`.
    """
    paths = sorted(directory.glob("*.yaml"))
    return {path.stem: path for path in paths if translated_lesson(path) is None}


def available_translations(lesson_id: str, directory: Path = LESSON_DIR) -> dict[str, Path]:
    """A lesson's translations beside its source: language codes mapped to files."""
    found = {}
    for path in lesson_files(directory):
        parts = translated_lesson(path)
        if parts is not None and parts[0] == lesson_id:
            found[parts[1]] = path
    return found


def lesson_files(directory: Path = LESSON_DIR) -> list[Path]:
    """Every lesson file in a folder: sources and translations."""
    return sorted(directory.glob("*.yaml"))


def translated_lesson(path: Path | str) -> tuple[str, str] | None:
    """For a translation's file (`rlvr.es.yaml`), its lesson id and language; else None."""
    match = _TRANSLATION_FILE.match(Path(path).name)
    return (match["id"], match["language"]) if match else None


def source_file(path: Path | str) -> Path | None:
    """The source file a translation's file sits beside (`rlvr.yaml`); None for a source."""
    parts = translated_lesson(path)
    return Path(path).with_name(f"{parts[0]}.yaml") if parts else None


def load_lesson(
    lesson_id: str, directory: Path = LESSON_DIR, language: str | None = None
) -> Lesson:
    """Load a lesson shipped with the bot by its id: in `language` if it has that translation."""
    lessons = available_lessons(directory)
    if lesson_id not in lessons:
        known = ", ".join(lessons) or "none"
        raise LessonError(lesson_id, [f"unknown lesson '{lesson_id}' (available: {known})"])
    source = load_lesson_file(lessons[lesson_id])
    translation = available_translations(lesson_id, directory).get(language or "")
    if translation is None or language == source.language:
        return source
    return load_translation(translation, source)


def load_translation(path: Path | str, source: Lesson) -> Lesson:
    """Load a translation's file, refused unless only its words differ from `source`'s."""
    translation = load_lesson_file(path)
    parts = translated_lesson(path)
    source_name = f"{parts[0] if parts else source.id}.yaml"
    language = parts[1] if parts else None
    problems = translation_problems(source, translation, source_name, language)
    if problems:
        raise LessonError(path, problems)
    return translation


def load_lesson_file(path: Path | str) -> Lesson:
    """Parse and validate one lesson file."""
    raw = _read_yaml(Path(path))
    try:
        return Lesson.model_validate(raw)
    except ValidationError as error:
        raise LessonError(path, _describe(error, raw)) from None


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise LessonError(path, [f"cannot read the file: {error.strerror}"]) from None
    try:
        return yaml.load(text, Loader=SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or "malformed YAML"
        raise LessonError(path, [f"malformed YAML{where}: {problem}"]) from None


def _describe(error: ValidationError, raw: Any) -> list[str]:
    """Turn pydantic's errors into lines such as `step 'checker', field 'gold': ...`."""
    return [_describe_one(tuple(item["loc"]), item["msg"], raw) for item in error.errors()]


def _describe_one(loc: tuple[Any, ...], message: str, raw: Any) -> str:
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        step_name = _item_name(raw, "steps", loc[1])
        field = ".".join(str(part) for part in loc[3:] if part not in ("",)) or "(step)"
        return f"step {step_name}, field '{field}': {message}"
    if len(loc) >= 2 and loc[0] == "delayed_recall" and isinstance(loc[1], int):
        question = _item_name(raw, "delayed_recall", loc[1])
        field = ".".join(str(part) for part in loc[2:]) or "(question)"
        return f"delayed-recall question {question}, field '{field}': {message}"
    field = ".".join(str(part) for part in loc) or "(lesson)"
    return f"field '{field}': {message}"


def _item_name(raw: Any, items: str, index: int) -> str:
    """The id of the lesson's item at `index` of a list (`steps`), or its position."""
    try:
        item_id = raw[items][index]["id"]
    except (KeyError, IndexError, TypeError):
        return f"#{index + 1}"
    return f"'{item_id}'"
