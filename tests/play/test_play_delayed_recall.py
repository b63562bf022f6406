"""Play mode's delayed recall: a preview after the lesson, or (`--recall`) the check taken now.

With `--recall`, play moves its clock on to the check, you answer yours by number and are told
right or not, the simulated classmates answer theirs by an assumed forgetting rate, and the
channel's post of what it kept is shown as the platforms post it, labelled as a simulation.
"""

from __future__ import annotations

import io
import random
import sqlite3
from pathlib import Path

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.model.records import RecallRound
from bot.play.assigned import AssignedPlaySession
from bot.play.console import Console
from bot.play.later import KEPT, LEARNED, NO_QUESTIONS, RECALL_OFF, later_choice
from bot.play.main import play_session
from bot.play.session import PlayOptions, PlaySession
from bot.service.recalls import kept_card
from bot.verifier import Checker
from lessons.loader import load_lesson
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.play.test_play_mode import play, scripted_answers
from tests.play.test_play_peer_round import flat

LESSON = load_lesson("rlvr")
QUESTIONS = LESSON.delayed_recall
CHECK_ANSWERS = "4\n3\n3\n"
"""At the check: right, wrong (essays), right."""
DAY = 24 * 3600
SIMULATED = 12
RIGHT = "checkable-reward"


async def played(
    engine: LessonEngine, clock: FakeClock, answers: str, recall: bool,
    assigned: bool = False, classmates: int = SIMULATED, lesson: str | None = None,
) -> tuple[str, int]:
    """A whole session from piped answers: what it printed (unwrapped), and its run's id."""
    out = io.StringIO()
    options = PlayOptions(lesson, 7, classmates, assigned=assigned, recall=recall)
    kind = AssignedPlaySession if assigned else PlaySession
    session = kind(engine, Console(io.StringIO(answers), out), options)
    await play_session(session, clock)
    assert session.surface.run_id is not None
    return flat(out.getvalue()), session.surface.run_id


def after(text: str, marker: str) -> str:
    """What was printed from `marker` on."""
    return text[text.index(marker):]


async def test_a_played_lesson_ends_with_a_preview_of_the_later_questions(
    engine: LessonEngine, clock: FakeClock
) -> None:
    text, _ = await played(engine, clock, scripted_answers(), recall=False)
    preview = after(text, "Later: 3 days after the lesson")
    assert preview.startswith("Later: 3 days after the lesson, each member who answered would "
                              "get these 3 questions privately on Discord or Slack:")
    for number, question in enumerate(QUESTIONS, start=1):
        assert f"{number}. {flat(question.text)}" in preview
        assert all(choice.label not in preview for choice in question.choices)
    assert preview.endswith("Take the check now, with the simulated classmates: "
                            "lessonbot play --recall")
    assert "simulated time" not in text and "What the channel kept" not in text


async def test_play_recall_takes_the_check_and_shows_what_the_channel_kept(
    engine: LessonEngine, clock: FakeClock
) -> None:
    started = clock()
    text, run_id = await played(engine, clock, scripted_answers() + CHECK_ANSWERS, recall=True)
    assert "Later: 3 days after" not in text  # taken, not previewed
    check = after(text, "── 3 days later (simulated time)")
    puzzle, writing, bugs = QUESTIONS
    right = f"✅ “{puzzle.correct_choice.label}”: right. {puzzle.why}"
    wrong = (f"❌ “{writing.choices[2].label}”: not quite; it was "
             f"“{writing.correct_choice.label}”. {writing.why}")
    assert check.index(right) < check.index(wrong) < check.index(bugs.why)
    assert [check.count(verdict) for verdict in (right, wrong, bugs.why)] == [1, 1, 1]
    assert "That's the check: 2 of 3 right." in check

    kept = after(check, "── What the channel kept, 3 days on")
    recall_round = RecallRound(run_id, 1, 3 * DAY)
    figures = await engine.recall.kept(recall_round)
    assert figures is not None and figures.answered == SIMULATED + 1
    for line in kept_card(figures).lines:  # the platforms' post, its numbers from the store
        assert flat(line) in kept
    assert kept.count(" of 13") >= 12  # each question's lines and bars count all 13
    assert (f"A simulation: every member counted here but you is one of {SIMULATED} simulated "
            "classmates, not real people.") in kept
    assert f"right again with a {KEPT:.0%} chance" in kept
    assert f"right with a {LEARNED:.0%} chance if wrong there" in kept

    progress = await engine.recall.progress(run_id)
    assert (progress.planned, progress.sent, progress.answered) == (13, 13, 13)
    assert await engine.recall.rounds_due() == []  # posted once, as on a platform
    assert (clock() - started).total_seconds() >= 5 * DAY


async def test_play_recall_with_no_answers_still_runs_to_the_end(
    engine: LessonEngine, clock: FakeClock
) -> None:
    text, _ = await played(engine, clock, "", recall=True, classmates=3)
    assert "You answered nothing at the lesson, so no check comes to you." in text
    assert "3 members answered the recall check 3 days after" in text
    assert text.rstrip().endswith("else a wrong choice at random.")


async def test_assigned_play_takes_the_check_after_closing(
    engine: LessonEngine, clock: FakeClock
) -> None:
    answers = scripted_answers() + CHECK_ANSWERS
    text, _ = await played(engine, clock, answers, recall=True, assigned=True, classmates=5)
    closed = text.index("Closed. The results are posted")
    assert closed < text.index("── 3 days later (simulated time)")
    assert "That's the check: 2 of 3 right." in text
    assert "6 members answered the recall check 3 days after" in text


async def test_without_a_recall_plan_there_is_no_preview_and_nothing_to_take(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    engine = LessonEngine(store, checker, LessonCatalog(), clock, recall_plan=())
    plain, _ = await played(engine, clock, "", recall=False, classmates=1)
    assert "Later:" not in plain
    taken, _ = await played(engine, clock, "", recall=True, classmates=1)
    assert taken.rstrip().endswith(RECALL_OFF)


async def test_a_lesson_without_later_questions_has_no_preview_and_nothing_to_take(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    catalog = LessonCatalog()
    catalog.add(LESSON.model_copy(update={"id": "no-later", "delayed_recall": []}))
    engine = LessonEngine(store, checker, catalog, clock)
    plain, _ = await played(engine, clock, "", recall=False, classmates=1, lesson="no-later")
    assert "Later:" not in plain
    taken, _ = await played(engine, clock, "", recall=True, classmates=1, lesson="no-later")
    assert taken.rstrip().endswith(NO_QUESTIONS)


def test_classmates_keep_and_learn_at_the_stated_rates() -> None:
    question = QUESTIONS[0]
    rng = random.Random(1)
    draws = 4000
    kept = [later_choice(rng, question, right_then=True) for _ in range(draws)]
    learned = [later_choice(rng, question, right_then=False) for _ in range(draws)]
    right = question.correct_choice
    assert abs(kept.count(right) / draws - KEPT) < 0.03
    assert abs(learned.count(right) / draws - LEARNED) < 0.03
    wrong = {choice.id for choice in kept + learned if choice != right}
    assert wrong == {choice.id for choice in question.choices if not choice.correct}


def test_play_recall_runs_to_the_end_on_piped_input(tmp_path: Path) -> None:
    stdin = scripted_answers() + CHECK_ANSWERS
    result = play(tmp_path, stdin, "--recall", "--seed", "3", "--classmates", "3")
    assert result.returncode == 0, result.stderr
    out = flat(result.stdout)
    assert "That's the check: 2 of 3 right." in out
    assert "4 members answered the recall check 3 days after" in out
    assert "A simulation: every member counted here but you is one of 3 simulated" in out
    assert out.endswith("Its answers as CSV: lessonbot export --run 1")
    with sqlite3.connect(tmp_path / "play.db") as db:
        checks = db.execute("select count(*), count(sent_at) from recall_checks").fetchone()
        assert checks == (4, 4)
        assert db.execute("select count(posted_at) from recall_rounds").fetchone() == (1,)


async def last_answers_at_lesson(engine: LessonEngine, run_id: int) -> dict[str, str]:
    """Each member's last answer to the opening prediction: asked again at the end, else first."""
    answers = await engine.store.export_answers(run_id)
    first = {a.user_id: a.value for a in answers if a.step_id == "what-changed"}
    again = {a.user_id: a.value for a in answers if a.step_id == "what-changed-again"}
    return {**first, **again}


async def test_play_recall_compares_with_the_last_answer_at_the_lesson(
    engine: LessonEngine, clock: FakeClock
) -> None:
    text, run_id = await played(engine, clock, scripted_answers() + CHECK_ANSWERS, recall=True)
    answers = await engine.store.export_answers(run_id)
    opening = [a.value for a in answers if a.step_id == "what-changed"]
    last = await last_answers_at_lesson(engine, run_id)
    right = sum(choice == RIGHT for choice in last.values())
    assert right != opening.count(RIGHT)  # the lesson taught something
    kept = after(text, "── What the channel kept, 3 days on")
    assert f"Same brain, a year later: right at the lesson {right} of {len(last)} (" in kept


async def test_play_classmates_keep_what_they_last_answered_at_the_lesson(
    engine: LessonEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every classmate keeping what they knew and learning nothing, nothing changes."""
    monkeypatch.setattr("bot.play.later.KEPT", 1.0)
    monkeypatch.setattr("bot.play.later.LEARNED", 0.0)
    text, run_id = await played(engine, clock, scripted_answers() + CHECK_ANSWERS, recall=True)
    last = await last_answers_at_lesson(engine, run_id)
    right, members = sum(choice == RIGHT for choice in last.values()), len(last)
    kept = after(text, "── What the channel kept, 3 days on")
    assert (f"Same brain, a year later: right at the lesson {right} of {members} "
            f"({right / members:.0%}); 3 days later {right} of {members} (") in kept
