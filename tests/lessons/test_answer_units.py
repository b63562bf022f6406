"""A step's `unit`: loaded from the file, and checked by `lessons validate`."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bot.cli import cli
from lessons.loader import LESSON_DIR, LessonError, load_lesson_file
from lessons.schema import FreeAnswerStep, VerifierStep


def rlvr_with(tmp_path: Path, kind: str, **fields: object) -> Path:
    """The shipped lesson written to a file, with `fields` set on its step of `kind`."""
    data = yaml.safe_load((LESSON_DIR / "rlvr.yaml").read_text(encoding="utf-8"))
    step = next(step for step in data["steps"] if step["kind"] == kind)
    step.update(fields)
    path = tmp_path / "rlvr.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def validate(path: Path) -> tuple[int, str]:
    """Run `lessons validate` on one file: its exit status and everything it printed."""
    result = CliRunner().invoke(cli, ["lessons", "validate", str(path)])
    return result.exit_code, result.output


def test_the_shipped_lesson_names_km_per_hour_and_validates(tmp_path: Path) -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    units = {step.id: step.unit for step in lesson.steps
             if isinstance(step, VerifierStep | FreeAnswerStep)}
    assert units == {"be-the-checker": "km/h", "your-turn": None}
    assert validate(LESSON_DIR / "rlvr.yaml") == (0, f"{LESSON_DIR / 'rlvr.yaml'}: ok\n")


@pytest.mark.parametrize(
    ("kind", "fields", "problem"),
    [
        ("verifier", {"unit": "furlongs"},
         "step 'be-the-checker', field 'unit': 'furlongs' is not a unit the checker knows"),
        ("free_answer", {"unit": "parsecs"},
         "step 'your-turn', field 'unit': 'parsecs' is not a unit the checker knows"),
        ("verifier", {"gold": "20 m/s"},
         "step 'be-the-checker', field 'gold': the checker cannot read it"),
        ("verifier", {"unit": None, "gold": "20 km/h"},
         "step 'be-the-checker', field 'gold': the checker cannot read it"),
    ],
)
def test_validate_names_the_step_and_field_of_a_unit_problem(
    tmp_path: Path, kind: str, fields: dict[str, object], problem: str
) -> None:
    status, printed = validate(rlvr_with(tmp_path, kind, **fields))
    assert status == 1
    assert problem in printed


def test_a_unit_in_the_steps_unit_and_gold_validates(tmp_path: Path) -> None:
    assert validate(rlvr_with(tmp_path, "verifier", gold="20 km/h"))[0] == 0
    assert validate(rlvr_with(tmp_path, "free_answer", gold="75", unit="percent"))[0] == 0


def test_an_empty_unit_is_refused_when_the_file_loads(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match="step 'be-the-checker', field 'unit'"):
        load_lesson_file(rlvr_with(tmp_path, "verifier", unit=""))
