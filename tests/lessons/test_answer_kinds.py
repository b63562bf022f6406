"""A lesson with set, point, interval and text golds loads, validates and grades end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.engine import LessonCatalog, LessonEngine
from bot.lesson_check import lesson_problems, validate_files
from bot.verifier import Checker
from lessons.loader import load_lesson_file
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CAROL, CHANNEL, HOST

ATTEMPTS = [
    {"id": "both", "label": "Both roots", "style": "careful", "expect": "correct",
     "text": "x^2 = 9, so x = 3 or x = -3. Final answer: \\boxed{3, -3}"},
    {"id": "one", "label": "One root", "style": "flattering", "expect": "incorrect",
     "text": "Clearly the answer is \\boxed{3}."},
    {"id": "point", "label": "A point", "style": "hedging", "expect": "rejected",
     "text": "I'd say \\boxed{(3, -3)}."},
]


def _free_answer(step_id: str, gold: str, **extra: object) -> dict[str, object]:
    return {"id": step_id, "kind": "free_answer", "title": step_id, "body": "Answer it.",
            "problem": "Solve it.", "gold": gold, "explanation": "Because.", **extra}


def _lesson(steps: list[dict[str, object]]) -> dict[str, object]:
    return {"id": "kinds", "version": 1, "title": "Answer kinds", "summary": "Kinds.",
            "steps": steps}


def _kinds_lesson() -> dict[str, object]:
    return _lesson([
        {"id": "roots", "kind": "verifier", "title": "Roots", "body": "Rate them.",
         "problem": "Solve x^2 = 9.", "gold": "\\pm 3", "attempts": ATTEMPTS,
         "explanation": "Both roots."},
        _free_answer("roots-again", "\\{-3, 3\\}"),
        _free_answer("meet", "(3, 2)"),
        _free_answer("range", "[0, 1)"),
        _free_answer("parity", "\\text{odd}", accept=["uneven"]),
    ])


def _write(tmp_path: Path, lesson: dict[str, object]) -> Path:
    path = tmp_path / "kinds.yaml"
    path.write_text(yaml.safe_dump(lesson), encoding="utf-8")
    return path


async def test_a_lesson_with_every_kind_of_gold_validates(
    tmp_path: Path, checker: Checker
) -> None:
    lesson = load_lesson_file(_write(tmp_path, _kinds_lesson()))
    assert lesson.step_by_id("parity").accept == ["uneven"]
    assert await lesson_problems(lesson, checker) == []


@pytest.mark.parametrize(
    ("gold", "accept", "field", "problem"),
    [("3 or 4", [], "gold", "more than one answer"),
     ("[5, 1]", [], "gold", "left end must be below"),
     ("twenty", [], "gold", "word 'twenty'"),
     ("3", ["three"], "accept", "for an answer in words"),
     ("odd", [" "], "accept", "An accepted spelling is empty")],
)
async def test_validation_names_the_step_and_field_of_an_unreadable_gold(
    tmp_path: Path, checker: Checker, gold: str, accept: list[str], field: str, problem: str
) -> None:
    path = _write(tmp_path, _lesson([_free_answer("broken", gold, accept=accept)]))
    results = await validate_files([path], checker)
    [message] = results[str(path)]
    assert message.startswith(f"step 'broken', field '{field}': ")
    assert problem in message


@pytest.mark.parametrize(
    ("step_id", "answers"),
    [
        ("roots-again", {"x = 3 or x = -3": 1, "3": 0, "3 or 4": 0}),
        ("meet", {"(3, 2)": 1, "(2, 3)": 0}),
        ("range", {"0 \\le x < 1": 1, "(0, 1)": 0}),
        ("parity", {"Odd.": 1, "uneven": 1, "even": 0}),
    ],
)
async def test_members_answers_are_graded_through_the_real_checker(
    tmp_path: Path, store: SqlRunStore, checker: Checker, clock: FakeClock, step_id: str,
    answers: dict[str, int],
) -> None:
    catalog = LessonCatalog()
    catalog.add(load_lesson_file(_write(tmp_path, _kinds_lesson())))
    engine = LessonEngine(store, checker, catalog, clock)
    card = await engine.start(CHANNEL, HOST, lesson_id="kinds")
    while card.step_id != step_id:
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None
        card = advance.card
    for member, (answer, reward) in zip([ALICE, BOB, CAROL], answers.items(), strict=False):
        receipt = await engine.submit_answer(card.run_id, card.step_id, member, answer)
        assert receipt.reward == reward, (answer, receipt.text)
