"""The two graders the short-answer benchmark compares, and how each one's result is scored.

The bot's checker is `bot.verifier.grading.grade_answer`, called in-process, with the item's
unit and language (`language="es"` reads a decimal comma and Spanish words). math-verify is
`verify(parse(gold), parse(answer))` on the same strings without the unit or the language, each
written as LaTeX maths (`$3/4$`, as its documentation shows; a string that already holds a `$`
is passed as it is); `bare=True` passes the strings untouched. It is optional (the `bench`
extra): `load_math_verify()` returns None without it.

Scoring an item gives one of three results:
* `agree`: the checker's CORRECT or INCORRECT equals the label, or it refused (REJECTED) an
  item labelled `ask`; math-verify's True on `correct`, False on `incorrect`;
* `wrong`: a wrong verdict; CORRECT where the label is incorrect or ask, INCORRECT where it is
  correct or ask; for math-verify any boolean on an `ask` item, or the opposite boolean;
* `refused`: the checker refused an item that deserved a verdict (not wrong, not agreement).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Literal

from benchmarks.short_answers import ShortAnswer
from bot.verifier.grading import grade_answer
from bot.verifier.verdict import Grade

Result = Literal["agree", "wrong", "refused"]
MATH_VERIFY_MISSING = (
    "not measured: math-verify is not installed (pip install -e '.[bench]', or make bench)"
)
_VERDICTS = {Grade.CORRECT: "correct", Grade.INCORRECT: "incorrect"}


def grade_with_checker(item: ShortAnswer) -> Grade:
    """The bot checker's outcome for one item, in the item's unit and language."""
    return grade_answer(item.answer, item.gold, unit=item.unit, language=item.language).outcome


def checker_result(outcome: Grade, expected: str) -> Result:
    """Score the checker's outcome against the label: agree, wrong verdict, or refused."""
    if outcome is Grade.REJECTED:
        return "agree" if expected in ("ask", "no-credit") else "refused"
    if expected == "no-credit":
        return "wrong" if outcome is Grade.CORRECT else "agree"
    return "agree" if _VERDICTS[outcome] == expected else "wrong"


def math_verify_result(verdict: bool, expected: str) -> Result:
    """Score math-verify's boolean against the label: any boolean on an `ask` item is wrong."""
    if expected == "ask":
        return "wrong"
    return "agree" if verdict == (expected == "correct") else "wrong"  # no-credit wants False


def as_latex_math(text: str) -> str:
    """`text` between dollar signs, unless it already holds one."""
    return text if "$" in text else f"${text}$"


def load_math_verify(bare: bool = False) -> Callable[[ShortAnswer], bool] | None:
    """A grader calling `verify(parse(gold), parse(answer))`, or None if math-verify is missing."""
    try:
        math_verify = importlib.import_module("math_verify")
    except ImportError:
        return None
    parse, verify = math_verify.parse, math_verify.verify
    written: Callable[[str], str] = str if bare else as_latex_math

    def grade(item: ShortAnswer) -> bool:
        return bool(verify(parse(written(item.gold)), parse(written(item.answer))))

    return grade
