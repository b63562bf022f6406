"""Reading authored gold answers for lesson validation."""

from __future__ import annotations

import pytest

from bot.verifier import Checker

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.mark.parametrize(
    ("gold", "reading"),
    [("20", "20"), ("3/4", "3/4"), ("0.75", "0.75"), ("x^2+2x+1", "x^2 + 2*x + 1"),
     ("\\frac{\\sqrt{2}}{2}", "sqrt(2)/2"), ("-3", "-3"), ("pi", "pi")],
)
async def test_reads_gold_answers(shared_checker: Checker, gold: str, reading: str) -> None:
    assert await shared_checker.read_gold(gold) == reading


@pytest.mark.parametrize(
    ("gold", "reason"),
    [("3 or 4", "more than one answer"), ("twenty", "word 'twenty'"), ("", "no answer"),
     ("1/0", "divides by zero"), ("5!", "Factorials")],
)
async def test_unreadable_gold_raises_value_error(
    shared_checker: Checker, gold: str, reason: str
) -> None:
    with pytest.raises(ValueError, match=reason) as raised:
        await shared_checker.read_gold(gold)
    assert "can't be read" in str(raised.value)


async def test_overlong_gold_raises_value_error(shared_checker: Checker) -> None:
    with pytest.raises(ValueError, match="too long"):
        await shared_checker.read_gold("1" * 10_000)
