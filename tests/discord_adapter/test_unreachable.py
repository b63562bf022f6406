"""Starting the bot where Discord cannot be reached: one line that says what to check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fakes.discord_processes import bot_environment
from fakes.fake_discord import FakeDiscord
from fakes.slack_processes import free_port


def test_an_unreachable_discord_ends_in_one_line_saying_what_to_check(tmp_path: Path) -> None:
    closed = free_port()  # nothing listens there
    database = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    environment = bot_environment(FakeDiscord(), database, "INFO")
    finished = subprocess.run(
        [sys.executable, "-m", "fakes.discord_bot_process",
         f"http://127.0.0.1:{closed}/api/v10", f"ws://127.0.0.1:{closed}/gateway"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120, check=False,
    )
    assert finished.returncode == 1, finished.stderr
    errors = [line for line in finished.stderr.splitlines() if line.startswith("error:")]
    assert errors == [errors[0]] and "could not reach Discord" in errors[0], finished.stderr
    assert "network connection" in errors[0]
    assert "Traceback" not in finished.stderr
    assert "voice will NOT be supported" not in finished.stderr
