"""Lesson content (YAML files) and the schema that validates it."""

from lessons.loader import LessonError, available_lessons, load_lesson, load_lesson_file
from lessons.schema import Lesson, Step, StepKind

__all__ = [
    "Lesson",
    "LessonError",
    "Step",
    "StepKind",
    "available_lessons",
    "load_lesson",
    "load_lesson_file",
]
