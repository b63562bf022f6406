"""What the answer checker says about one answer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.verifier.said import said_in


class Grade(StrEnum):
    """The three ways a check can end."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Verdict:
    """The checker's grade for one answer against one gold answer.

    `read` is what the checker understood the final answer to be, shown to members so they
    see why they got their reward; `reason` explains a rejection or a mismatch, in the
    language spoken when the verdict came back. `why` is the catalog message it was said from,
    so that a verdict kept for later is said again in the language of that moment (`said`).
    """

    outcome: Grade
    read: str
    gold: str
    reason: str = ""
    why: Mapping[str, object] | None = field(default=None, compare=False, repr=False)

    def said(self) -> str:
        """The reason in the current language."""
        if self.why is None:
            return self.reason
        written = self.why.get("text")
        return said_in(written if isinstance(written, str) else self.reason, self.why)

    @property
    def reward(self) -> int:
        """1 for a correct answer, 0 for anything else."""
        return 1 if self.outcome is Grade.CORRECT else 0
