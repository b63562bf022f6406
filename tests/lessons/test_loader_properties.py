"""Property tests: any file content gives a lesson or a `LessonError`, never a crash."""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons.loader import LessonError, load_lesson_file

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(
    max_size=20)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "kind", "steps", "title", "body", "choices",
                                       "gold", "attempts", "version", "x"]), inner, max_size=6),
    max_leaves=25,
)


def load_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lesson.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            load_lesson_file(path)
        except LessonError as error:
            assert error.problems and all(error.problems)
            assert str(path) in str(error)


@settings(max_examples=150)
@given(documents)
def test_any_yaml_document_is_a_lesson_or_a_clear_error(document: object) -> None:
    load_text(yaml.safe_dump(document))


@settings(max_examples=150)
@given(st.text(max_size=200))
def test_any_text_is_a_lesson_or_a_clear_error(text: str) -> None:
    load_text(text)
