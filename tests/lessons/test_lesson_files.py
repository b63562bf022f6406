"""Every lesson shipped in lessons/ loads, validates and reads with the checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.lesson_check import lesson_problems
from bot.verifier import Checker
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.schema import FreeAnswerStep, PredictionStep, Step, VerifierStep

LESSON_FILES = sorted(LESSON_DIR.glob("*.yaml"))


def test_there_is_at_least_the_rlvr_lesson() -> None:
    assert "rlvr.yaml" in [path.name for path in LESSON_FILES]


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.name)
async def test_lesson_file_is_valid(path: Path, checker: Checker) -> None:
    lesson = load_lesson_file(path)
    assert lesson.id == path.name.split(".")[0]
    assert await lesson_problems(lesson, checker) == []


def rlvr_steps() -> list[Step]:
    return list(load_lesson_file(LESSON_DIR / "rlvr.yaml").steps)


def test_rlvr_keeps_the_beats_in_order() -> None:
    kinds = [step.kind.value for step in load_lesson_file(LESSON_DIR / "rlvr.yaml").steps]
    order = ["prediction", "verifier", "prediction", "free_answer", "peer_round", "prediction",
             "takeaway"]
    positions = [kinds.index(order[0])]
    for kind in order[1:]:
        positions.append(kinds.index(kind, positions[-1] + 1))
    assert positions == sorted(positions)


async def test_in_the_verifier_exercise_only_the_careful_attempt_earns_a_reward(
    checker: Checker,
) -> None:
    step = next(s for s in rlvr_steps() if isinstance(s, VerifierStep))
    rewards = {a.style: (await checker.check_attempt(a.text, step.gold)).reward
               for a in step.attempts}
    assert rewards.pop("careful") == 1
    assert set(rewards.values()) == {0}
    assert {"flattering", "hedging"} <= set(rewards)


def test_the_writing_question_offers_the_misconception() -> None:
    predictions = [s for s in rlvr_steps() if isinstance(s, PredictionStep)]
    labels = [c.label.lower() for s in predictions for c in s.choices if not c.correct]
    assert any("everything" in label for label in labels)


def test_the_deepseek_figures_name_the_paper_version() -> None:
    text = " ".join(text for step in rlvr_steps() for text in step.authored_texts())
    for fact in ("15.6%", "71.0%", "86.7%", "2501.12948v1", "GRPO"):
        assert fact in text


def test_the_free_answer_has_simulated_answers() -> None:
    step = next(s for s in rlvr_steps() if isinstance(s, FreeAnswerStep))
    assert len(step.crowd_answers) >= 3
