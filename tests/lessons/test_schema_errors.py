"""Bad lesson files are refused with errors naming the file, the step and the field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from lessons.loader import LESSON_DIR, LessonError, load_lesson, load_lesson_file


def rlvr_data() -> dict[str, object]:
    data = yaml.safe_load((LESSON_DIR / "rlvr.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def write(tmp_path: Path, data: object, name: str = "broken.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def step_of_kind(data: dict[str, object], kind: str) -> dict[str, object]:
    steps = data["steps"]
    assert isinstance(steps, list)
    return next(step for step in steps if step["kind"] == kind)


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\nsteps: [\n  - oops: {\n", encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        load_lesson_file(path)
    assert str(path) in str(caught.value) and "malformed YAML at line" in str(caught.value)


def test_a_missing_field_names_the_step_and_field(tmp_path: Path) -> None:
    data = rlvr_data()
    step = step_of_kind(data, "verifier")
    del step["gold"]
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    message = str(caught.value)
    assert f"step '{step['id']}', field 'gold': Field required" in message
    assert "broken.yaml" in message


@pytest.mark.parametrize(
    ("correct", "problem"),
    [(True, "at most one choice"), (False, "keywords name .* no choice is correct")],
    ids=["two correct choices", "keywords with no correct choice"],
)
def test_a_question_has_one_right_answer_or_none_and_then_no_keywords(
    tmp_path: Path, correct: bool, problem: str
) -> None:
    data = rlvr_data()
    step = step_of_kind(data, "prediction")
    for choice in step["choices"]:  # type: ignore[attr-defined]
        choice["correct"] = correct
    with pytest.raises(LessonError, match=f"step '{step['id']}'.*{problem}"):
        load_lesson_file(write(tmp_path, data))


def test_an_unknown_explanation_variant_is_refused(tmp_path: Path) -> None:
    data = rlvr_data()
    step = step_of_kind(data, "verifier")
    step["explanations"]["rated_unlike"] = "text"  # type: ignore[index]
    with pytest.raises(LessonError, match=r"field 'explanations\.rated_unlike'"):
        load_lesson_file(write(tmp_path, data))


def test_a_bad_choice_label_names_the_nested_field(tmp_path: Path) -> None:
    data = rlvr_data()
    step = step_of_kind(data, "prediction")
    step["choices"][1]["label"] = "x" * 200  # type: ignore[index]
    with pytest.raises(LessonError, match=r"field 'choices\.1\.label'"):
        load_lesson_file(write(tmp_path, data))


def test_duplicate_step_ids_and_unknown_kinds_are_refused(tmp_path: Path) -> None:
    data = rlvr_data()
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[1]["id"] = steps[0]["id"]
    with pytest.raises(LessonError, match="step ids must be unique"):
        load_lesson_file(write(tmp_path, data))
    steps[1]["id"] = "fine"
    steps[2]["kind"] = "quiz"
    with pytest.raises(LessonError, match=f"step '{steps[2]['id']}'"):
        load_lesson_file(write(tmp_path, data))


def test_an_unknown_field_is_a_typo_not_silence(tmp_path: Path) -> None:
    data = rlvr_data()
    step_of_kind(data, "takeaway")["bodyy"] = "typo"
    with pytest.raises(LessonError, match="bodyy"):
        load_lesson_file(write(tmp_path, data))


def test_an_unknown_lesson_id_lists_the_known_ones() -> None:
    with pytest.raises(LessonError, match=r"unknown lesson 'nope' \(available: .*rlvr"):
        load_lesson("nope")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=120)


def test_validate_command_reports_per_file(tmp_path: Path) -> None:
    data = rlvr_data()
    step_of_kind(data, "free_answer")["gold"] = "3 +* 4"
    broken = write(tmp_path, data)
    result = run_cli("lessons", "validate", str(LESSON_DIR / "rlvr.yaml"), str(broken))
    assert result.returncode == 1
    assert "rlvr.yaml: ok" in result.stdout
    assert f"{broken}: step '" in result.stderr and "field 'gold'" in result.stderr


def test_validate_command_passes_the_shipped_lessons() -> None:
    result = run_cli("lessons", "validate")
    assert result.returncode == 0, result.stderr
    assert "rlvr.yaml: ok" in result.stdout


def test_schema_command_prints_a_json_schema() -> None:
    result = run_cli("lessons", "schema")
    schema = json.loads(result.stdout)
    assert schema["title"] == "Lesson"
    assert {"PredictionStep", "VerifierStep", "FreeAnswerStep"} <= set(schema["$defs"])
