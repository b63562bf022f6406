"""A recall step asks an earlier prediction again; bad recalls name the file, step and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons.loader import LessonError, load_lesson_file
from lessons.schema import PredictionStep
from tests.lessons.test_schema_errors import rlvr_data, write

RECALL = "broken.yaml: step 'what-changed-again'"


def refusal(tmp_path: Path, **changes: object) -> str:
    """The error of the RLVR lesson whose recall step has `changes` (None removes a field)."""
    data = rlvr_data()
    steps = data["steps"]
    assert isinstance(steps, list)
    step = next(step for step in steps if step.get("recall"))
    for field, value in changes.items():
        if value is None:
            del step[field]
        else:
            step[field] = value
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    return str(caught.value)


def test_a_recall_without_choices_asks_with_the_recalled_ones(tmp_path: Path) -> None:
    lesson = load_lesson_file(write(tmp_path, rlvr_data()))
    again = lesson.step_by_id("what-changed-again")
    first = lesson.step_by_id("what-changed")
    assert isinstance(again, PredictionStep) and isinstance(first, PredictionStep)
    assert [c.label for c in again.choices] == [c.label for c in first.choices]
    assert again.correct_choice == first.correct_choice


@pytest.mark.parametrize("target", ["nowhere", "intro", "be-the-checker", "takeaway"])
def test_a_recall_of_no_earlier_prediction_names_the_field(tmp_path: Path, target: str) -> None:
    expected = f"{RECALL}, field 'recall': '{target}' must be the id of an earlier prediction step"
    assert expected in refusal(tmp_path, recall=target)


def test_a_recall_with_other_choices_is_refused(tmp_path: Path) -> None:
    other = [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]
    expected = f"{RECALL}, field 'choices': a recall asks again with the same choices as"
    assert expected in refusal(tmp_path, choices=other)


def test_a_prediction_without_choices_or_recall_is_refused(tmp_path: Path) -> None:
    expected = f"{RECALL}, field 'choices': a prediction needs 2 to 5 choices"
    assert expected in refusal(tmp_path, recall=None)
