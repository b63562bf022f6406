"""LOG_LEVEL is checked where settings are read: a wrong one stops every command with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def lessonbot(folder: Path, log_level: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOG_LEVEL": log_level}
    return subprocess.run([sys.executable, "-m", "bot", "lessons", "list"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_log_level_in_any_case_is_read_in_capitals() -> None:
    assert Settings(_env_file=None, log_level="debug").log_level == "DEBUG"
    assert Settings(_env_file=None, log_level=" Warning ").log_level == "WARNING"


def test_an_unknown_log_level_is_refused_in_the_settings() -> None:
    with pytest.raises(ValidationError, match="'verbose' is not a log level"):
        Settings(_env_file=None, log_level="verbose")


def test_an_unknown_log_level_stops_the_command_with_one_line_naming_it(tmp_path: Path) -> None:
    done = lessonbot(tmp_path, "verbose")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "LOG_LEVEL: 'verbose' is not a log level; use one of DEBUG, INFO" in done.stderr
    assert done.stdout == ""
    assert lessonbot(tmp_path, "warning").returncode == 0
