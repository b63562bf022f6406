"""A recall step asks an earlier prediction again; bad recalls name the file, step and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons.loader import LessonError, load_lesson_file
from lessons.schema import PredictionStep
from tests.lessons.test_schema_errors import rlvr_data, write


def recall_step(data: dict[str, object]) -> dict[str, object]:
    steps = data["steps"]
    assert isinstance(steps, list)
    return next(step for step in steps if step.get("recall"))


def test_a_recall_without_choices_asks_with_the_recalled_ones(tmp_path: Path) -> None:
    lesson = load_lesson_file(write(tmp_path, rlvr_data()))
    again = lesson.step_by_id("what-changed-again")
    first = lesson.step_by_id("what-changed")
    assert isinstance(again, PredictionStep) and isinstance(first, PredictionStep)
    assert [c.label for c in again.choices] == [c.label for c in first.choices]
    assert again.correct_choice == first.correct_choice


def test_a_recall_of_an_unknown_step_names_the_field(tmp_path: Path) -> None:
    data = rlvr_data()
    recall_step(data)["recall"] = "nowhere"
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    assert (
        "broken.yaml: step 'what-changed-again', field 'recall': "
        "'nowhere' must be the id of an earlier prediction step"
    ) in str(caught.value)


@pytest.mark.parametrize("target", ["intro", "be-the-checker", "takeaway"])
def test_a_recall_of_a_step_that_is_no_earlier_prediction_is_refused(
    tmp_path: Path, target: str
) -> None:
    data = rlvr_data()
    recall_step(data)["recall"] = target
    with pytest.raises(LessonError, match=f"field 'recall': '{target}' must be the id of an"):
        load_lesson_file(write(tmp_path, data))


def test_a_recall_with_other_choices_is_refused(tmp_path: Path) -> None:
    data = rlvr_data()
    recall_step(data)["choices"] = [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    assert (
        "step 'what-changed-again', field 'choices': "
        "a recall asks again with the same choices as 'what-changed'"
    ) in str(caught.value)


def test_a_prediction_without_choices_or_recall_is_refused(tmp_path: Path) -> None:
    data = rlvr_data()
    step = recall_step(data)
    del step["recall"]
    with pytest.raises(LessonError, match="step 'what-changed-again', field 'choices': a predic"):
        load_lesson_file(write(tmp_path, data))
