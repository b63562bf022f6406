"""`python -m bot mechanism` trains the same toy from the command line, on the lesson's names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120
    )


def test_mechanism_command_takes_the_lessons_attempt_names(tmp_path: Path) -> None:
    chart = tmp_path / "training.png"
    result = run_bot("mechanism", "--votes", "polished=7,thorough=2,hedge=1", "--chart", str(chart))
    assert result.returncode == 0, result.stderr
    assert "picking The polished one" in result.stdout
    assert "picking The second look" in result.stdout
    assert "**" not in result.stdout  # Markdown drawn for a terminal, or stripped as here
    assert "Assumptions: 7 raters" in result.stdout
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_mechanism_command_names_the_valid_attempts_for_an_unknown_one() -> None:
    result = run_bot("mechanism", "--votes", "charming=3")
    assert result.returncode == 2 and result.stdout == ""
    assert "'charming' is not an attempt of this lesson" in result.stderr
    assert "polished (The polished one)" in result.stderr
