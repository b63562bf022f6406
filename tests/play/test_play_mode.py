"""Play mode driven end to end through piped stdin, on a real SQLite file."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.engine.addresses import Action
from bot.i18n import _
from bot.play.session import THUMBS
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.schema import FreeAnswerStep, PeerRoundStep, PredictionStep, VerifierStep


def play(tmp_path: Path, stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'play.db'}"}
    return subprocess.run([sys.executable, "-m", "bot", "play", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)


PLAYERS_REASON = "A program can test code but not a eulogy."


def scripted_answers(
    ratings: Sequence[str] | None = None, up: str | None = None, down: str | None = None
) -> str:
    """Right answers for every question, as a player would type them (`up`, `down`: thumbs,
    by default the letters play asks for in the language spoken now).

    At a peer round: the answer, a reason, and the answer again (at a second vote; where there
    is none, the Enter prompt after the results answers it and asks again). `ratings`: the
    lines typed at the verifier step instead of a thumbs-up for each flattering attempt and a
    thumbs-down for the others.
    """
    lines: list[str] = []
    for step in load_lesson_file(LESSON_DIR / "rlvr.yaml").steps:
        if isinstance(step, PredictionStep | PeerRoundStep):
            right = next(n for n, c in enumerate(step.choices, 1) if c.correct)
            lines.append(str(right))
            if isinstance(step, PeerRoundStep):
                lines += [PLAYERS_REASON, str(right)]
        elif isinstance(step, VerifierStep):
            thumbs = [thumb(Action.UP if a.style == "flattering" else Action.DOWN, up, down)
                      for a in step.attempts]
            lines += thumbs if ratings is None else ratings
        elif isinstance(step, FreeAnswerStep):
            lines += ["0.1", step.gold]
        lines.append("")  # Enter to continue
    return "\n".join(lines) + "\n"


def thumb(action: Action, up: str | None, down: str | None) -> str:
    """The letter typed for a thumb: the one given, else play's in the language spoken now."""
    given = up if action is Action.UP else down
    return given if given is not None else _(THUMBS[action][0])


def test_play_runs_the_whole_lesson_from_piped_answers(tmp_path: Path) -> None:
    result = play(tmp_path, scripted_answers(), "--seed", "3", "--classmates", "12")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "12 simulated classmates" in out
    assert "13 answered (12 simulated)" in out
    assert "Try 1: the checker read 0.1. Reward 0" in out
    assert "Try 2:" in out and "Reward 1" in out
    assert "thumbs-up" in out and "reward 1" in out
    assert "TRAIN A TINY MODEL ON YOUR VOTES" in out and "What the toy learned" in out
    assert "not a real language model" in out
    assert "This channel as a GRPO group" in out and "earned reward 1" in out
    assert "Finished" in out and "13 members took part." in out
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select state from runs").fetchall() == [("finished",)]
        assert db.execute("select count(*) from members").fetchone() == (13,)
        tries = db.execute("select count(*) from free_answers where member_id = "
                           "(select id from members where user_id = 'you')").fetchone()
        assert tries == (2,)


def test_play_is_reproducible_for_a_seed(tmp_path: Path) -> None:
    outputs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        result = play(folder, "", "--seed", "5")
        assert result.returncode == 0, result.stderr
        outputs.append([line for line in result.stdout.splitlines() if "run " not in line])
    assert outputs[0] == outputs[1]


def test_play_completes_when_stdin_is_empty(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--classmates", "3")
    assert result.returncode == 0, result.stderr
    assert "3 members took part." in result.stdout


def test_bad_input_gets_a_message_and_q_stops(tmp_path: Path) -> None:
    steps = load_lesson_file(LESSON_DIR / "rlvr.yaml").steps
    first_question = next(i for i, s in enumerate(steps) if isinstance(s, PredictionStep))
    stdin = "\n" * first_question + "9\nq\n"
    result = play(tmp_path, stdin, "--classmates", "2")
    assert result.returncode == 0, result.stderr
    assert "Type a number from 1 to" in result.stdout
    assert "Stopped early" in result.stdout
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select state from runs").fetchall() == [("stopped",)]


def test_an_unknown_lesson_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--lesson", "nope")
    assert result.returncode == 2
    assert "no lesson called 'nope'" in result.stdout
    assert not (tmp_path / "play.db").exists()


def test_a_lesson_file_can_be_played(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--lesson", str(LESSON_DIR / "rlvr.yaml"), "--classmates", "1")
    assert result.returncode == 0, result.stderr
    assert "Finished" in result.stdout


def test_more_shows_a_steps_detail_when_asked(tmp_path: Path) -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    index, step = next((i, s) for i, s in enumerate(lesson.steps) if s.more)
    questions = sum(isinstance(s, PredictionStep) for s in lesson.steps[:index])
    stdin = "\n" * (index + questions) + "m\n"  # a prediction takes its answer and an Enter
    result = play(tmp_path, stdin, "--classmates", "1")
    assert result.returncode == 0, result.stderr
    first_line = (step.more or "").split(".")[0]
    assert "m for more" in result.stdout
    assert " ".join(first_line.split()) in " ".join(result.stdout.split())


def test_play_says_where_the_run_is_stored_and_its_id_for_export(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--classmates", "2")
    assert result.returncode == 0, result.stderr
    database = tmp_path / "play.db"
    line = f"Stored as run 1 in {database}. Its answers as CSV: lessonbot export --run 1"
    assert result.stdout.rstrip().endswith(line)
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'play.db'}"}
    exported = subprocess.run([sys.executable, "-m", "bot", "export", "--run", "1"], env=env,
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert exported.returncode == 0 and exported.stdout.count("\n") > 3


def test_quitting_before_anything_is_counted_claims_no_counts(tmp_path: Path) -> None:
    result = play(tmp_path, "q\n", "--classmates", "12")
    assert result.returncode == 0, result.stderr
    assert "Stopped early, step 1 of" in result.stdout
    assert "Counted here" not in result.stdout
    assert "Stored as run 1 in" in result.stdout
