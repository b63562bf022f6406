"""The `verify` command: check one answer against a gold answer from the command line."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from bot.verifier.checker import Checker
from bot.verifier.errors import CheckerError
from bot.verifier.verdict import Grade, Verdict

EXIT_STATUS = {Grade.CORRECT: 0, Grade.INCORRECT: 1, Grade.REJECTED: 2}
"""Exit status for each outcome; 3 means the checker itself could not run."""
CHECKER_FAILED = 3


def verify_command(
    answer: str,
    gold: str,
    *,
    unit: str | None = None,
    accept: Sequence[str] = (),
    language: str = "en",
) -> int:
    """Check `answer` (in `language`) against `gold` in `unit`; print the verdict and status."""
    try:
        verdict = asyncio.run(_check_once(answer, gold, unit, accept, language))
    except CheckerError as error:
        print(f"error: {error}", file=sys.stderr)
        return CHECKER_FAILED
    print(describe_verdict(verdict))
    return EXIT_STATUS[verdict.outcome]


def describe_verdict(verdict: Verdict) -> str:
    """Render a verdict as the few labelled lines the command prints."""
    lines = [
        f"read:    {verdict.read or '(nothing)'}",
        f"gold:    {verdict.gold}",
        f"verdict: {verdict.outcome} (reward {verdict.reward})",
    ]
    if verdict.reason:
        lines.append(f"reason:  {verdict.reason}")
    return "\n".join(lines)


async def _check_once(
    answer: str, gold: str, unit: str | None, accept: Sequence[str], language: str
) -> Verdict:
    """Start a one-worker checker, grade one answer and stop it again."""
    async with Checker(workers=1) as checker:
        return await checker.check_answer(
            answer, gold, unit=unit, accept=accept, language=language
        )
