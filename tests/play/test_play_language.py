"""`lessonbot play --lang es`: the whole lesson in its Spanish translation, from piped answers."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from babel.messages.pofile import read_po

from bot.engine import LessonCatalog
from bot.i18n import LOCALE_DIR
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.schema import (
    FreeAnswerStep,
    MechanismStep,
    PeerRoundStep,
    PredictionStep,
    VerifierStep,
)
from tests.play.test_play_mode import PLAYERS_REASON, play


def spanish_lesson_answers() -> str:
    """Right answers for every question of the Spanish lesson; its problem with a decimal comma."""
    lines: list[str] = []
    for step in load_lesson_file(LESSON_DIR / "rlvr.yaml").steps:
        if isinstance(step, PredictionStep | PeerRoundStep):
            right = next(n for n, c in enumerate(step.choices, 1) if c.correct)
            lines.append(str(right))
            if isinstance(step, PeerRoundStep):
                lines += [PLAYERS_REASON, str(right)]
        elif isinstance(step, VerifierStep):
            lines += ["+" if a.style == "flattering" else "-" for a in step.attempts]
        elif isinstance(step, FreeAnswerStep):
            assert step.gold == "3/4"
            lines.append("0,75")  # 3/4 as Spanish writes it
        elif isinstance(step, MechanismStep):
            lines.append("m")  # how the toy was trained, behind More
        lines.append("")
    return "\n".join(lines) + "\n"


def test_play_in_spanish_runs_the_spanish_lesson_to_its_end(tmp_path: Path) -> None:
    spanish = LessonCatalog().get("rlvr", "es")
    result = play(tmp_path, spanish_lesson_answers(), "--lang", "es", "--classmates", "3")
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    assert spanish.title in out
    for step in spanish.steps:
        assert step.title.upper() in out or step.title in out, step.title
    assert "El mismo cerebro, un año después" in out and "Same brain, a year later" not in out
    assert "lessonbot play --lang es --recall --run 1" in out
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select language, state from runs").fetchall() == [("es", "finished")]
        mine = db.execute(
            "select text, reward from free_answers where member_id = "
            "(select id from members where user_id = 'you')"
        ).fetchall()
    assert mine == [("0,75", 1)]  # the checker read the decimal comma


def test_play_without_a_language_stays_in_english(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--classmates", "1")
    assert result.returncode == 0, result.stderr
    assert "Same brain, a year later" in " ".join(result.stdout.split())
    with sqlite3.connect(tmp_path / "play.db") as db:
        assert db.execute("select language from runs").fetchall() == [("en",)]


def test_play_refuses_a_language_the_bot_does_not_have(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--lang", "fr")
    assert result.returncode == 2
    assert "'fr' is not one of 'en', 'es'" in result.stderr
    assert not (tmp_path / "play.db").exists()


def english_fragments() -> set[str]:
    """Runs of three or more words of each English catalog entry that Spanish says otherwise.

    Each entry is cut at its placeholders; a run its Spanish translation repeats (a name, a
    formula) is not English left behind.
    """
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    found = set()
    for message in catalog:
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        spanish = " ".join(message.string if isinstance(message.string, tuple)
                           else (message.string,))
        for source in filter(None, sources):
            for piece in re.split(r"\{[^{}]*\}", source):
                words = " ".join(piece.split()).strip(" .,:;()`*_")
                if len(words.split()) >= 3 and words not in spanish:
                    found.add(words)
    return found


def test_play_in_spanish_prints_no_english_catalog_line(tmp_path: Path) -> None:
    """Every line play prints in Spanish, recall check and farewell included, is Spanish."""
    lesson = play(tmp_path, spanish_lesson_answers(), "--lang", "es", "--classmates", "3")
    assert lesson.returncode == 0, lesson.stderr
    check = play(tmp_path, "1\n" * 20, "--lang", "es", "--recall")
    assert check.returncode == 0, check.stderr
    assert "3 días después" in check.stdout
    out = " ".join((lesson.stdout + check.stdout).split())
    assert sorted(fragment for fragment in english_fragments() if fragment in out) == []
    assert re.findall(r"\S*\d%", out) == []  # Spanish writes "60 %"
    assert "tasa de aprendizaje 0,1;" in out and "15,6 % al 71,0 %" in out
    assert "¿pulgar arriba o abajo? [+/-, Enter para saltar] +" in out
    # An attempt's title ("El pulido") stands apart, never after a word that would join it
    assert re.findall(r"\b(?:a|de|en|con|por|premió|eligió|eligiendo) El\b", out) == []
