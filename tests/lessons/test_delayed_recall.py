"""Delayed-recall questions: a lesson's key ideas asked again in new words, days later."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lessons.loader import LESSON_DIR, LessonError, load_lesson_file
from lessons.schema import LaterQuestion, Lesson, PeerRoundStep, PredictionStep
from tests.lessons.test_schema_errors import rlvr_data, run_cli, step_of_kind, write

Data = dict[str, object]


def questions(data: Data) -> list[dict[str, object]]:
    later = data["delayed_recall"]
    assert isinstance(later, list)
    return later


def step(data: Data, step_id: str) -> dict[str, object]:
    steps = data["steps"]
    assert isinstance(steps, list)
    return next(s for s in steps if s["id"] == step_id)


def refusal(tmp_path: Path, change: Callable[[Data], object]) -> list[str]:
    """The problems of the RLVR lesson after `change`, which must make it invalid."""
    data = rlvr_data()
    change(data)
    with pytest.raises(LessonError) as caught:
        load_lesson_file(write(tmp_path, data))
    return caught.value.problems


def test_the_rlvr_lesson_asks_three_of_its_ideas_again() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    asked = [question.asks_again for question in lesson.delayed_recall]
    assert asked == ["what-changed", "what-about-writing", "code-vs-eulogy"]
    for question in lesson.delayed_recall:
        assert isinstance(question, LaterQuestion)
        assert 2 <= len(question.choices) <= 5
        assert [c for c in question.choices if c.correct] == [question.correct_choice]
        assert question.why and question.text.strip().endswith("?")


def test_the_rlvr_questions_each_word_the_idea_anew() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    for question in lesson.delayed_recall:
        original = lesson.step_by_id(question.asks_again)
        assert isinstance(original, PredictionStep | PeerRoundStep)
        copied = {c.label for c in question.choices} & {c.label for c in original.choices}
        assert copied == set(), question.id
        assert question.text.strip() != original.body.strip()


def test_a_lesson_without_delayed_recall_still_loads(tmp_path: Path) -> None:
    data = rlvr_data()
    del data["delayed_recall"]
    assert load_lesson_file(write(tmp_path, data)).delayed_recall == []


def copy_step_body(data: Data) -> None:
    first = questions(data)[0]
    first["text"] = "  " + str(step(data, str(first["asks_again"]))["body"]).upper()


def copy_step_labels(data: Data) -> None:
    """Two choices left, one wrong and the right one, each labelled as one at the step."""
    first = questions(data)[0]
    labels = [c["label"] for c in step(data, str(first["asks_again"]))["choices"]]  # type: ignore[attr-defined]
    kept = [first["choices"][0], first["choices"][3]]  # type: ignore[index]
    for choice, label in zip(kept, labels[-2:], strict=True):
        choice["label"] = label.upper()
    first["choices"] = kept


def make_a_poll(data: Data) -> None:
    writing = step(data, "what-about-writing")
    writing["keywords"] = []
    for choice in writing["choices"]:  # type: ignore[attr-defined]
        choice["correct"] = False


def ask_again(target: str) -> Callable[[Data], object]:
    return lambda data: questions(data)[1].update(asks_again=target)


def set_correct(data: Data, marks: list[bool]) -> None:
    for choice, correct in zip(questions(data)[2]["choices"], marks, strict=False):  # type: ignore[call-overload]
        choice["correct"] = correct


FIRST = "delayed-recall question 'puzzle-recipe'"
SECOND = "delayed-recall question 'one-round-of-rl'"
THIRD = "delayed-recall question 'bugs-vs-condolences'"
CASES: list[tuple[str, Callable[[Data], object], str]] = [
    (
        "repeated id",
        lambda data: questions(data)[2].update(id="puzzle-recipe"),
        "delayed-recall question 'puzzle-recipe', field 'id': 'puzzle-recipe' is the id of "
        "an earlier delayed-recall question",
    ),
    (
        "unknown step",
        ask_again("nowhere"),
        f"{SECOND}, field 'asks_again': 'nowhere' is not a step of this lesson",
    ),
    (
        "step without answers",
        ask_again("intro"),
        f"{SECOND}, field 'asks_again': 'intro' is a narration step; name a prediction or a "
        "peer round with a right answer",
    ),
    (
        "verifier step",
        ask_again("be-the-checker"),
        f"{SECOND}, field 'asks_again': 'be-the-checker' is a verifier step; name a "
        "prediction or a peer round with a right answer",
    ),
    (
        "recall step",
        ask_again("what-changed-again"),
        f"{SECOND}, field 'asks_again': 'what-changed-again' asks 'what-changed' again; "
        "name the original, 'what-changed'",
    ),
    (
        "poll",
        make_a_poll,
        f"{SECOND}, field 'asks_again': 'what-about-writing' is a poll (no choice is "
        "correct); name a prediction or a peer round with a right answer",
    ),
    (
        "no correct choice",
        lambda data: set_correct(data, [False] * 4),
        f"{THIRD}, field 'choices': a delayed-recall question needs exactly one choice "
        "marked correct",
    ),
    (
        "two correct choices",
        lambda data: set_correct(data, [True, True, False, False]),
        f"{THIRD}, field 'choices': a delayed-recall question needs exactly one choice "
        "marked correct",
    ),
    (
        "repeated choice id",
        lambda data: questions(data)[0]["choices"][0].update(id="more-text"),  # type: ignore[index]
        f"{FIRST}, field 'choices': choice ids must be unique, got ['more-text', 'more-text', ",
    ),
    (
        "one choice",
        lambda data: questions(data)[0].update(choices=questions(data)[0]["choices"][3:4]),  # type: ignore[index]
        f"{FIRST}, field 'choices': List should have at least 2 items",
    ),
    (
        "the step's body word for word",
        copy_step_body,
        f"{FIRST}, field 'text': the text is the body of 'what-changed' word for word; "
        "ask its idea in new words",
    ),
    (
        "the step's labels",
        copy_step_labels,
        f"{FIRST}, field 'choices': the choices copy the labels of 'what-changed'; word them "
        "anew, so a member recalls the idea, not the button",
    ),
    (
        "a why too long for one line",
        lambda data: questions(data)[1].update(why="Because " * 20),
        f"{SECOND}, field 'why': String should have at most 80 characters",
    ),
    (
        "no id",
        lambda data: questions(data)[0].pop("id"),
        "delayed-recall question #1, field 'id': Field required",
    ),
    (
        "six questions",
        lambda data: data.update(delayed_recall=questions(data) * 2),
        "field 'delayed_recall': List should have at most 5 items",
    ),
]


@pytest.mark.parametrize(
    ("change", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_a_bad_delayed_recall_question_is_refused_by_name(
    tmp_path: Path, change: Callable[[Data], object], expected: str
) -> None:
    problems = refusal(tmp_path, change)
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_a_step_label_or_two_may_stay_when_the_rest_are_new(tmp_path: Path) -> None:
    data = rlvr_data()
    first = questions(data)[0]
    first["choices"][0]["label"] = step(data, "what-changed")["choices"][0]["label"]  # type: ignore[index]
    assert load_lesson_file(write(tmp_path, data)).delayed_recall[0].choices[0].label == (
        "A bigger model, or a new kind of model"
    )


def test_validate_command_reports_a_bad_delayed_recall(tmp_path: Path) -> None:
    data = rlvr_data()
    questions(data)[2]["asks_again"] = step_of_kind(data, "takeaway")["id"]
    broken = write(tmp_path, data)
    result = run_cli("lessons", "validate", str(LESSON_DIR / "rlvr.yaml"), str(broken))
    assert result.returncode == 1
    assert "rlvr.yaml: ok" in result.stdout
    assert (
        f"{broken}: {THIRD}, field 'asks_again': 'takeaway' is a takeaway step; name a "
        "prediction or a peer round with a right answer"
    ) in result.stderr


def test_the_schema_command_describes_delayed_recall() -> None:
    result = run_cli("lessons", "schema")
    schema = json.loads(result.stdout)
    field = schema["properties"]["delayed_recall"]
    assert field["maxItems"] == 5 and field["items"] == {"$ref": "#/$defs/LaterQuestion"}
    question = schema["$defs"]["LaterQuestion"]
    assert set(question["required"]) == {"id", "asks_again", "text", "choices", "why"}
    assert question["additionalProperties"] is False
    choices = question["properties"]["choices"]
    assert (choices["minItems"], choices["maxItems"]) == (2, 5)
    assert question["properties"]["why"]["maxLength"] == 80
    assert schema == Lesson.model_json_schema()
