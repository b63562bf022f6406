"""The terminal command: printed report and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.mechanism.cli import mechanism_command


def test_prints_three_runs_and_returns_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert mechanism_command("flattering=7,careful=2,hedging=1", seed=0, steps=300) == 0
    out = capsys.readouterr().out
    assert "not a real language model" in out
    assert "ends up **flattering**" in out
    assert "ends up **careful**" in out
    assert "ends up **hedging**" in out
    for name in ("thumbs-up reward:", "checker reward:", "naive checker reward:"):
        assert name in out
    assert "  300" in out


def test_writes_chart_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "runs.png"
    assert mechanism_command("careful=3", steps=30, chart_path=str(chart)) == 0
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert str(chart) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("votes", "steps", "message"),
    [
        ("flattering:7", 300, "expected style=count"),
        ("careful=-2", 300, "negative"),
        ("polite=1", 300, "allowed styles: flattering, long-wrong, hedging, careful"),
        ("careful=1", 0, "steps must be between 1 and"),
        ("careful=1", 10**6, "steps must be between 1 and"),
    ],
)
def test_bad_input_returns_two_with_a_message(
    votes: str, steps: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert mechanism_command(votes, steps=steps) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_unwritable_chart_path_returns_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-dir" / "chart.png"
    assert mechanism_command("careful=1", steps=20, chart_path=str(missing)) == 2
    captured = capsys.readouterr()
    assert "cannot write the chart" in captured.err
    assert captured.out == ""
