"""What a bot must do when its SQLite file vanishes or is replaced: say so, and stop cleanly."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from bot.process.database_watch import DATABASE_LOST_STATUS

STOPS_WITHIN = 30.0
"""Seconds a bot may take to notice the lost file and stop."""


def sqlite_url(path: Path) -> str:
    """The DATABASE_URL of a SQLite file."""
    return f"sqlite+aiosqlite:///{path}"


def replace_with_a_copy(path: Path) -> None:
    """Put another file (a copy of the database) where the database file was."""
    copy = path.with_name(path.name + ".copy")
    shutil.copyfile(path, copy)
    os.replace(copy, path)


def assert_stopped_cleanly(status: int | None, output: str, path: Path, what: str) -> None:
    """The bot exited with the lost-database status, naming the file and what became of it."""
    assert status == DATABASE_LOST_STATUS, output
    assert f"The database file {path} {what} while the bot was running" in output, output
    assert "Traceback" not in output, output
