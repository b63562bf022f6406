"""The `verify` command's function: what it prints and the exit status it returns."""

from __future__ import annotations

import pytest

from bot.verifier.cli import describe_verdict, verify_command
from bot.verifier.verdict import Grade, Verdict


def test_correct_answer_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_command("0.5", "1/2") == 0
    printed = capsys.readouterr().out
    assert "read:    0.5" in printed
    assert "gold:    1/2" in printed
    assert "verdict: correct (reward 1)" in printed


def test_incorrect_answer_exits_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_command("- 3", "3") == 1
    printed = capsys.readouterr().out
    assert "read:    -3" in printed
    assert "verdict: incorrect (reward 0)" in printed
    assert "reason:" in printed


def test_rejected_answer_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify_command("3 or 4", "4") == 2
    printed = capsys.readouterr().out
    assert "verdict: rejected (reward 0)" in printed
    assert "more than one answer" in printed


def test_description_marks_an_empty_reading() -> None:
    text = describe_verdict(Verdict(Grade.REJECTED, "", "4", "No answer."))
    assert text.splitlines() == [
        "read:    (nothing)",
        "gold:    4",
        "verdict: rejected (reward 0)",
        "reason:  No answer.",
    ]
