"""`python -m bot export` and `python -m bot forget` on a real SQLite file."""

from __future__ import annotations

import csv
import io
import os
import pty
import subprocess
import sys
from datetime import timedelta

import pytest

from bot.engine import LessonEngine
from bot.model import Member
from lessons.schema import PredictionStep
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""


def run_bot(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run([sys.executable, "-m", "bot", *args], env=env, capture_output=True,
                          text=True, timeout=120)


async def test_export_and_forget_from_the_command_line(
    engine: LessonEngine, database_url: str
) -> None:
    card = await start_at(engine, "prediction")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    for member in (ALICE, BOB):
        await engine.choose(card.run_id, step.id, member, step.choices[0].id)
    exported = run_bot(database_url, "export", "--run", str(card.run_id))
    assert exported.returncode == 0, exported.stderr
    users = [row["user_id"] for row in csv.DictReader(io.StringIO(exported.stdout))]
    assert users == ["alice", "bob"]
    preview = run_bot(database_url, "forget", "--platform", "discord", "--workspace", "guild-1",
                      "--user", "alice")
    assert preview.returncode == 0 and preview.stdout.startswith(
        "Nothing deleted yet. Forgetting discord user alice in guild-1 would remove 1 stored "
    ) and "Add --confirm to delete." in preview.stdout
    unchanged = run_bot(database_url, "export", "--run", str(card.run_id))
    assert [row["user_id"] for row in csv.DictReader(io.StringIO(unchanged.stdout))] == users
    forgot = run_bot(database_url, "forget", "--platform", "discord", "--workspace", "guild-1",
                     "--user", "alice", "--confirm")
    assert forgot.returncode == 0 and forgot.stdout.startswith(
        "Forgot discord user alice in guild-1: removed 1 stored answer (1 choice or rating, "
    )
    again = run_bot(database_url, "export", "--run", str(card.run_id))
    assert [row["user_id"] for row in csv.DictReader(io.StringIO(again.stdout))] == ["bob"]
    host = run_bot(database_url, "forget", "--platform", "discord", "--workspace", "guild-1",
                   "--user", "host-1", "--confirm")
    assert host.returncode == 0 and "blanked the host id on 1 run hosted" in host.stdout


def test_export_of_an_unknown_run_says_so(database_url: str) -> None:
    result = run_bot(database_url, "export", "--run", "999")
    assert result.returncode == 2 and "There is no run 999" in result.stderr


async def test_the_exported_recall_rows_name_the_step_they_ask_again(
    engine: LessonEngine, database_url: str
) -> None:
    card = await engine.start(CHANNEL, HOST)
    while card.step_id != "what-changed-again":
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None
        card = advance.card
    await engine.choose(card.run_id, card.step_id, ALICE, "checkable-reward")
    exported = run_bot(database_url, "export", "--run", str(card.run_id))
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [(r["step"], r["recalls"], r["value"]) for r in rows] == [
        ("what-changed-again", "what-changed", "checkable-reward")
    ]


async def test_an_assigned_runs_export_says_when_each_member_started_and_finished(
    engine: LessonEngine, clock: FakeClock, database_url: str
) -> None:
    run_id = (await engine.assigned.assign(CHANNEL, HOST, None, clock() + timedelta(days=1))).run_id
    step = next(s for s in engine.catalog.get().steps if isinstance(s, PredictionStep))
    for member in (ALICE, BOB):
        await engine.store.start_pass(run_id, member, clock())
        await engine.store.record_vote(run_id, step.id, member, "choice", step.choices[0].id)
    finished = clock() + timedelta(hours=1)
    await engine.store.move_pass(run_id, ALICE.user_id, 0, 0, finished)
    exported = run_bot(database_url, "export", "--run", str(run_id))
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [(r["user_id"], r["started_at"], r["finished_at"]) for r in rows] == [
        ("alice", clock().isoformat(), finished.isoformat()),
        ("bob", clock().isoformat(), ""),
    ]


def export_on_a_terminal(url: str, run_id: int) -> str:
    """What `python -m bot export` prints when its output is a terminal (a pseudo-terminal)."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "DATABASE_URL": url}
    with subprocess.Popen([sys.executable, "-m", "bot", "export", "--run", str(run_id)],
                          env=env, stdout=terminal, stderr=subprocess.DEVNULL) as process:
        os.close(terminal)
        printed = bytearray()
        while chunk := read_terminal(controller):
            printed += chunk
        assert process.wait(timeout=120) == 0
    os.close(controller)
    return printed.decode("utf-8")


def read_terminal(controller: int) -> bytes:
    """The next bytes a pseudo-terminal shows, or nothing once its last writer closed it."""
    try:
        return os.read(controller, 65536)
    except OSError:  # Linux says EIO when the other end is closed
        return b""


async def test_an_export_to_a_terminal_shows_a_members_control_characters_as_escapes(
    engine: LessonEngine, database_url: str
) -> None:
    card = await start_at(engine, "prediction")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    eve = Member("eve", "Eve\x1b]0;owned\x07")
    await engine.choose(card.run_id, step.id, eve, step.choices[0].id)
    shown = export_on_a_terminal(database_url, card.run_id)
    assert "\x1b" not in shown and "\x07" not in shown
    assert "Eve\\x1b]0;owned\\x07" in shown
    piped = run_bot(database_url, "export", "--run", str(card.run_id))
    assert "Eve\x1b]0;owned\x07" in piped.stdout
