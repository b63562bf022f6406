"""`python -m bot mechanism` runs the same training from the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          timeout=120)


def test_mechanism_command_prints_the_three_runs_and_writes_a_chart(tmp_path: Path) -> None:
    chart = tmp_path / "training.png"
    result = run_bot("mechanism", "--votes", "flattering=7,careful=2,hedging=1",
                     "--chart", str(chart))
    assert result.returncode == 0, result.stderr
    assert "ends up **flattering**" in result.stdout
    assert "ends up **careful**" in result.stdout and "ends up **hedging**" in result.stdout
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_mechanism_command_refuses_an_unknown_style() -> None:
    result = run_bot("mechanism", "--votes", "charming=3")
    assert result.returncode == 2
    assert "charming" in result.stderr and result.stdout == ""
