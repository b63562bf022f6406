"""The terminal command: the lesson's attempt names, the printed report and exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.mechanism.cli import MechanismOptions, mechanism_command

LESSON_NAMES = "polished=7,thorough=2,hedge=1"


def test_the_lessons_attempt_names_train_three_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert mechanism_command(LESSON_NAMES) == 0
    out = capsys.readouterr().out
    assert "picking **The polished one**" in out and "The checker marks that one wrong" in out
    assert "**Checker:** it ends up picking **The second look**" in out
    assert "trained on votes from the command line" in out
    assert "not a real language model" in out
    assert "The polished one 100%, The thorough one 29%, The hedge 14%, others 0%" in out


def test_the_assumptions_line_states_raters_steps_and_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert mechanism_command(LESSON_NAMES, MechanismOptions(seed=4, steps=40, raters=10)) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Assumptions:"))
    assert "10 raters each rated every attempt (--raters)" in line
    assert "40 training steps per run" in line and "seed 4" in line
    assert "The polished one 70%, The thorough one 20%, The hedge 10%, others 0%" in out


def test_without_raters_the_highest_count_is_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    assert mechanism_command("second=3", MechanismOptions(steps=20)) == 0
    out = capsys.readouterr().out
    assert "3 raters each rated every attempt (the highest count; set --raters)" in out


def test_the_checker_reward_comes_from_running_the_checker(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert mechanism_command("hedge=1", MechanismOptions(steps=20)) == 0
    out = capsys.readouterr().out
    checker = next(line for line in out.splitlines() if line.startswith("• **Checker**"))
    assert re.findall(r"(The [\w ]+?) (\d+)%", checker) == [("The second look", "100")]


def test_writes_chart_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "runs.png"
    assert mechanism_command("hedge=3", MechanismOptions(steps=30, chart_path=str(chart))) == 0
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert str(chart) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("votes", "options", "message"),
    [
        ("polished:7", MechanismOptions(), "expected name=count"),
        ("polished=-2", MechanismOptions(), "negative"),
        (
            "flattering=1",
            MechanismOptions(),
            "use one of: polished (The polished one), thorough (The thorough one), "
            "hedge (The hedge), second-look (The second look)",
        ),
        (
            "polished=5",
            MechanismOptions(raters=3),
            "--raters must be at least 5 (one attempt's thumbs-ups), got 3",
        ),
        ("polished=0", MechanismOptions(raters=0), "--raters must be at least 1"),
        ("polished=1", MechanismOptions(steps=0), "steps must be between 1 and"),
        ("polished=1", MechanismOptions(steps=10**6), "steps must be between 1 and"),
        ("polished=1", MechanismOptions(lesson_id="nope"), "unknown lesson 'nope'"),
    ],
)
def test_bad_input_returns_two_with_a_message(
    votes: str, options: MechanismOptions, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert mechanism_command(votes, options) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_unwritable_chart_path_returns_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-dir" / "chart.png"
    assert mechanism_command("polished=1", MechanismOptions(chart_path=str(missing))) == 2
    captured = capsys.readouterr()
    assert "cannot write the chart" in captured.err
    assert captured.out == ""
