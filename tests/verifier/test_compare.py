"""Exact comparison: equal means provably equal, with no float tolerance."""

from __future__ import annotations

import pytest

from bot.verifier.compare import compare
from bot.verifier.reader import read_answer


def _compare(answer: str, gold: str) -> tuple[bool, bool]:
    result = compare(read_answer(answer).value, read_answer(gold).value)
    return result.equal, result.close


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("sqrt(3+2sqrt(2))", "1+sqrt(2)"),
        ("\\sqrt{5+2\\sqrt{6}}", "\\sqrt{2}+\\sqrt{3}"),
        ("2^(1/3)*2^(2/3)", "2"),
        ("pi^2/pi", "pi"),
        ("(x^2-1)/(x-1)", "x+1"),
        ("(a+b)^3", "a^3+3a^2*b+3a*b^2+b^3"),
    ],
)
def test_provably_equal_values_are_equal(answer: str, gold: str) -> None:
    assert _compare(answer, gold)[0]


@pytest.mark.parametrize(
    ("answer", "gold", "close"),
    [
        ("0.333", "1/3", True),
        ("3.14", "pi", True),
        ("3.1416", "pi", True),
        ("1.41421356", "sqrt(2)", True),
        ("22.5", "20", False),
        ("pi*10^300", "pi*10^300+1", True),
        ("x+1", "x", False),
        ("0.001", "0", True),
    ],
)
def test_unequal_values_are_unequal_and_flag_closeness(answer: str, gold: str, close: bool) -> None:
    assert _compare(answer, gold) == (False, close)
