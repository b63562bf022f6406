"""Play mode's assigned lesson, driven end to end through piped stdin, on a real SQLite file."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.engine import AssignmentCard, LessonCatalog
from bot.engine.cards import takes_answers
from bot.play.render import render_assignment
from tests.play.test_play_mode import play, scripted_answers

QUESTION_TITLES = [step.title for step in LessonCatalog().get("rlvr").steps if takes_answers(step)]


def test_play_assigned_takes_the_lesson_privately_then_closes_it(tmp_path: Path) -> None:
    result = play(
        tmp_path, scripted_answers(), "--assigned", "--seed", "3", "--classmates", "5"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    card_at, first_step_at = out.index("Assignment: "), out.index("Step 1 of 12")
    assert card_at < first_step_at and "0 started · 0 finished" in out[card_at:first_step_at]
    assert "So far: Same brain, a year later (6 answered)" in out
    assert out.count("So far: Same brain, a year later (") == 1  # once, after answering
    assert "You have finished the lesson." in out
    assert "6 started · 6 finished" in out and "Could not be messaged: 0" in out
    closed_at = out.index("Closed. The results are posted in the channel.")
    results = " ".join(out[closed_at:].split())
    assert "Assigned lesson, closed: 6 started · 6 answered · 6 finished." in results
    assert "simulated classmates" in out[closed_at:]
    thread = out.index("Thread: Each question of RLVR")
    assert out.index("Assigned lesson, closed:") < thread  # the questions follow the results
    reveals = out[thread:].split("\n    ── Results: ")[1:]  # each question's, indented
    assert [reveal.split(" ─")[0] for reveal in reveals] == QUESTION_TITLES
    assert "6 answered (5 simulated)." in reveals[0] and "<- right" in reveals[0]
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select state, mode from runs").fetchall() == [("finished", "assigned")]
        assert db.execute("select count(*) from member_passes").fetchone() == (6,)


def test_quitting_an_assignment_still_closes_it(tmp_path: Path) -> None:
    result = play(tmp_path, "q\n", "--assigned", "--classmates", "2")
    assert result.returncode == 0, result.stderr
    assert "3 started · 0 finished" in result.stdout
    assert "Closed. The results are posted" in result.stdout
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select state from runs").fetchall() == [("finished",)]


def test_the_terminal_card_says_the_due_time_in_utc() -> None:
    due = datetime(2026, 12, 10, 17, 0, tzinfo=UTC)
    text = " ".join(render_assignment(AssignmentCard(7, "RLVR", 12, 20, due)).split())
    assert "Due 2026-12-10 17:00 UTC." in text and "<" not in text
