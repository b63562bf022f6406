"""A recall step asks an earlier prediction again; bad recalls name the file, step and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons.loader import LESSON_DIR, LessonError, load_lesson_file
from lessons.schema import Lesson, PredictionStep
from tests.lessons.test_schema_errors import rlvr_data, step_of_kind, write

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


def test_the_lesson_sets_how_simulated_classmates_learn_at_its_recall() -> None:
    again = load_lesson_file(LESSON_DIR / "rlvr.yaml").step_by_id("what-changed-again")
    assert isinstance(again, PredictionStep)
    assert again.learned == 0.6 and again.kept == 0.9


@pytest.mark.parametrize("field", ["learned", "kept"])
@pytest.mark.parametrize(
    ("value", "problem"),
    [(1.5, "less than or equal to 1"), (-0.1, "greater than or equal to 0")],
)
def test_a_chance_outside_0_to_1_is_refused(
    tmp_path: Path, field: str, value: float, problem: str
) -> None:
    assert f"{RECALL}, field '{field}': Input should be {problem}" in refusal(
        tmp_path, **{field: value}
    )


@pytest.mark.parametrize("field", ["learned", "kept"])
def test_a_chance_on_a_question_that_is_not_a_recall_is_refused(
    tmp_path: Path, field: str
) -> None:
    data = rlvr_data()
    first = step_of_kind(data, "prediction")
    first[field] = 0.6
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    expected = f"step '{first['id']}', field '{field}': `{field}` is only for a recall step"
    assert expected in str(caught.value)


def test_a_chance_on_a_step_that_is_not_a_question_is_refused(tmp_path: Path) -> None:
    data = rlvr_data()
    narration = step_of_kind(data, "narration")
    narration["learned"] = 0.6
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    assert f"step '{narration['id']}', field 'learned': Extra inputs" in str(caught.value)


def test_the_exported_json_schema_bounds_both_chances() -> None:
    properties = Lesson.model_json_schema()["$defs"]["PredictionStep"]["properties"]
    for field in ("learned", "kept"):
        number = next(kind for kind in properties[field]["anyOf"] if kind["type"] == "number")
        assert (number["minimum"], number["maximum"]) == (0, 1)
        assert "Only on a recall" in properties[field]["description"]
