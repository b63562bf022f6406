"""Play mode's delayed recall: a preview after the lesson; `play --recall` takes the check later.

`play --recall` takes the check of a run played before in the same database (the latest, or
`--run N`) without playing the lesson again: play sets its clock to the check's time, you
answer yours by number and are told right or not, the run's simulated classmates answer theirs
by an assumed forgetting rate, and the channel's post of what it kept is shown as the
platforms post it, labelled as a simulation.
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
from bot.play.later import (
    KEPT,
    LEARNED,
    NO_QUESTIONS,
    NO_RUN,
    NO_SUCH_RUN,
    RECALL_OFF,
    TAKEN,
    later_choice,
    take_recall,
)
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
LESSON_STARTED = "── Step 1 of"
"""What a played lesson prints first, and a check taken alone never does."""


async def played(
    engine: LessonEngine, answers: str, assigned: bool = False, classmates: int = SIMULATED,
    lesson: str | None = None,
) -> tuple[str, int]:
    """A whole session from piped answers: what it printed (unwrapped), and its run's id."""
    out = io.StringIO()
    options = PlayOptions(lesson, 7, classmates, assigned=assigned)
    kind = AssignedPlaySession if assigned else PlaySession
    session = kind(engine, Console(io.StringIO(answers), out), options)
    await play_session(session)
    assert session.surface.run_id is not None
    return flat(out.getvalue()), session.surface.run_id


async def recalled(
    engine: LessonEngine, clock: FakeClock, answers: str, run_id: int | None = None
) -> str:
    """`play --recall` (with `--run`, if given) from piped answers: what it printed, unwrapped."""
    out = io.StringIO()
    options = PlayOptions(seed=7, recall=True, run=run_id)
    await take_recall(engine, Console(io.StringIO(answers), out), options, clock)
    return flat(out.getvalue())


def after(text: str, marker: str) -> str:
    """What was printed from `marker` on."""
    return text[text.index(marker):]


async def test_a_played_lesson_ends_with_a_preview_of_the_later_questions(
    engine: LessonEngine,
) -> None:
    text, run_id = await played(engine, scripted_answers())
    preview = after(text, "Later: 3 days after the lesson")
    assert preview.startswith("Later: 3 days after the lesson, each member who answered would "
                              "get these 3 questions privately on Discord or Slack:")
    for number, question in enumerate(QUESTIONS, start=1):
        assert f"{number}. {flat(question.text)}" in preview
        assert all(choice.label not in preview for choice in question.choices)
    assert preview.endswith("Take the check now, with the simulated classmates: "
                            f"lessonbot play --recall --run {run_id}")
    assert "simulated time" not in text and "What the channel kept" not in text


async def test_play_recall_takes_the_played_runs_check_without_playing_the_lesson_again(
    engine: LessonEngine, clock: FakeClock
) -> None:
    started = clock()
    _, run_id = await played(engine, scripted_answers())
    text = await recalled(engine, clock, CHECK_ANSWERS)
    assert LESSON_STARTED not in text and "Later: 3 days after" not in text
    assert text.startswith(f"── The delayed recall check of run {run_id}: {flat(LESSON.title)}")
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
    assert await engine.latest_run("terminal") == await engine.run(run_id)  # no new run


async def test_play_recall_takes_the_check_of_the_run_named(
    engine: LessonEngine, clock: FakeClock
) -> None:
    _, first = await played(engine, scripted_answers(), classmates=2)
    _, latest = await played(engine, "", classmates=2)
    text = await recalled(engine, clock, CHECK_ANSWERS, run_id=first)
    assert text.startswith(f"── The delayed recall check of run {first}:")
    assert "That's the check: 2 of 3 right." in text
    assert (await engine.recall.progress(latest)).sent == 0


async def test_a_check_taken_twice_says_it_was_taken(
    engine: LessonEngine, clock: FakeClock
) -> None:
    _, run_id = await played(engine, scripted_answers(), classmates=2)
    await recalled(engine, clock, CHECK_ANSWERS)
    again = await recalled(engine, clock, CHECK_ANSWERS)
    assert again == flat(TAKEN.format(run=run_id))


async def test_a_check_taken_long_after_the_lesson_is_still_open_to_take(
    engine: LessonEngine, clock: FakeClock
) -> None:
    await played(engine, scripted_answers(), classmates=2)
    clock.advance(30 * DAY)  # past the check's close, in real time
    text = await recalled(engine, clock, CHECK_ANSWERS)
    assert "That's the check: 2 of 3 right." in text
    assert "3 members answered the recall check 3 days after" in text


async def test_without_a_played_run_there_is_no_check_to_take(
    engine: LessonEngine, clock: FakeClock
) -> None:
    assert await recalled(engine, clock, "") == flat(NO_RUN)
    assert await recalled(engine, clock, "", run_id=99) == NO_SUCH_RUN.format(run=99)


@pytest.mark.parametrize("lesson_answers, check_answers", [
    pytest.param("", "", id="nothing-answered-at-the-lesson"),
    pytest.param(scripted_answers(), "", id="check-left-unanswered"),
])
async def test_a_member_who_answers_no_check_question_is_not_said_to_be_counted(
    engine: LessonEngine, clock: FakeClock, lesson_answers: str, check_answers: str
) -> None:
    await played(engine, lesson_answers, classmates=3)
    text = await recalled(engine, clock, check_answers)
    assert "4 members answered" not in text
    assert "3 members answered the recall check 3 days after" in text
    assert "but you" not in text
    assert ("A simulation: you answered no question of a check, so every member counted here "
            "is one of 3 simulated classmates, not real people.") in text
    assert text.rstrip().endswith("else a wrong choice at random.")


async def test_play_recall_with_no_answers_at_the_lesson_says_no_check_comes(
    engine: LessonEngine, clock: FakeClock
) -> None:
    await played(engine, "", classmates=3)
    text = await recalled(engine, clock, "")
    assert "You answered nothing at the lesson, so no check comes to you." in text


async def test_a_lone_player_who_answers_no_check_question_is_told_no_one_is_counted(
    engine: LessonEngine, clock: FakeClock
) -> None:
    await played(engine, scripted_answers(), classmates=0)
    text = await recalled(engine, clock, "")
    assert "Counted here: only your answers." not in text
    assert text.rstrip().endswith("No one is counted here: there are no simulated classmates, "
                                  "and you answered no question of a check.")


async def test_assigned_play_s_check_is_taken_after_closing(
    engine: LessonEngine, clock: FakeClock
) -> None:
    played_text, run_id = await played(engine, scripted_answers(), assigned=True, classmates=5)
    assert played_text.endswith(f"lessonbot play --recall --run {run_id}")
    text = await recalled(engine, clock, CHECK_ANSWERS)
    assert "That's the check: 2 of 3 right." in text
    assert "6 members answered the recall check 3 days after" in text


async def test_without_a_recall_plan_there_is_no_preview_and_nothing_to_take(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    engine = LessonEngine(store, checker, LessonCatalog(), clock, recall_plan=())
    text, _ = await played(engine, "", classmates=1)
    assert "Later:" not in text
    assert await recalled(engine, clock, "") == flat(RECALL_OFF)


async def test_a_lesson_without_later_questions_has_no_preview_and_nothing_to_take(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    catalog = LessonCatalog()
    catalog.add(LESSON.model_copy(update={"id": "no-later", "delayed_recall": []}))
    engine = LessonEngine(store, checker, catalog, clock)
    text, _ = await played(engine, "", classmates=1, lesson="no-later")
    assert "Later:" not in text
    assert await recalled(engine, clock, "") == flat(NO_QUESTIONS)


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


def test_play_recall_takes_the_check_of_the_run_played_before(tmp_path: Path) -> None:
    lesson = play(tmp_path, scripted_answers(), "--seed", "3", "--classmates", "3")
    assert lesson.returncode == 0, lesson.stderr
    assert flat(lesson.stdout).endswith("lessonbot play --recall --run 1 Stored as run 1 in "
                                        f"{tmp_path / 'play.db'}. Its answers as CSV: "
                                        "lessonbot export --run 1")
    result = play(tmp_path, CHECK_ANSWERS, "--recall", "--seed", "3")
    assert result.returncode == 0, result.stderr
    out = flat(result.stdout)
    assert out.startswith("── The delayed recall check of run 1:")
    assert LESSON_STARTED not in out
    assert "That's the check: 2 of 3 right." in out
    assert "4 members answered the recall check 3 days after" in out
    assert "A simulation: every member counted here but you is one of 3 simulated" in out
    assert out.endswith("Its answers as CSV: lessonbot export --run 1")
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select count(*) from runs").fetchone() == (1,)
        checks = db.execute("select count(*), count(sent_at) from recall_checks").fetchone()
        assert checks == (4, 4)
        assert db.execute("select count(posted_at) from recall_rounds").fetchone() == (1,)


def test_run_goes_with_recall_only(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--run", "1")
    assert result.returncode == 2
    assert "--run names the run whose check --recall takes: add --recall." in result.stderr


async def last_answers_at_lesson(engine: LessonEngine, run_id: int) -> dict[str, str]:
    """Each member's last answer to the opening prediction: asked again at the end, else first."""
    answers = await engine.store.export_answers(run_id)
    first = {a.user_id: a.value for a in answers if a.step_id == "what-changed"}
    again = {a.user_id: a.value for a in answers if a.step_id == "what-changed-again"}
    return {**first, **again}


async def test_play_recall_compares_with_the_last_answer_at_the_lesson(
    engine: LessonEngine, clock: FakeClock
) -> None:
    _, run_id = await played(engine, scripted_answers())
    text = await recalled(engine, clock, CHECK_ANSWERS)
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
    _, run_id = await played(engine, scripted_answers())
    text = await recalled(engine, clock, CHECK_ANSWERS)
    last = await last_answers_at_lesson(engine, run_id)
    right, members = sum(choice == RIGHT for choice in last.values()), len(last)
    kept = after(text, "── What the channel kept, 3 days on")
    assert (f"Same brain, a year later: right at the lesson {right} of {members} "
            f"({right / members:.0%}); 3 days later {right} of {members} (") in kept
