"""What the answer checker says about one answer."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Grade(StrEnum):
    """The three ways a check can end."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Verdict:
    """The checker's grade for one answer against one gold answer.

    `read` is what the checker understood the final answer to be, shown to members so they
    see why they got their reward; `reason` explains a rejection or a mismatch.
    """

    outcome: Grade
    read: str
    gold: str
    reason: str = ""

    @property
    def reward(self) -> int:
        """1 for a correct answer, 0 for anything else."""
        return 1 if self.outcome is Grade.CORRECT else 0
