"""The toy's choices: the verifier step's own sample attempts, with their votes and rewards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.i18n import N_, _
from bot.mechanism.naive import naive_reward
from bot.model.views import VerifierRow
from lessons.schema import Attempt, GoldAnswer

CHANNEL_VOTES = N_("this channel's votes")
COMMAND_LINE_VOTES = N_("votes from the command line")


class Exercise(Protocol):
    """Sample attempts at a problem, and its gold answer: a lesson step the toy trains on."""

    def sample_attempts(self) -> Sequence[Attempt]:
        """The sample attempts, in the lesson's order."""
        ...

    def gold_answer(self) -> GoldAnswer:
        """The gold answer the attempts are graded against."""
        ...


@dataclass(frozen=True)
class ToyAttempt:
    """One sample attempt as the toy sees it: its verifier table row, and the naive reward."""

    row: VerifierRow
    naive_reward: float

    @property
    def label(self) -> str:
        """The attempt's name in the lesson, e.g. 'The polished one'."""
        return self.row.label


@dataclass(frozen=True)
class ToyAttempts:
    """The attempts the toy picks from, the gold answer, and where their votes came from."""

    attempts: tuple[ToyAttempt, ...]
    gold: str
    votes_from: str

    @property
    def labels(self) -> tuple[str, ...]:
        """The attempts' names, in the lesson's order."""
        return tuple(attempt.label for attempt in self.attempts)


def toy_attempts(
    exercise: Exercise, rows: Sequence[VerifierRow], votes_from: str = CHANNEL_VOTES
) -> ToyAttempts:
    """The attempts beside their verifier rows (same order), with the naive reward added."""
    gold = exercise.gold_answer().text
    attempts = tuple(
        ToyAttempt(row, naive_reward(attempt.text, gold))
        for attempt, row in zip(exercise.sample_attempts(), rows, strict=True)
    )
    return ToyAttempts(attempts, gold, votes_from)


def toy_disclaimer(votes_from: str) -> str:
    """The one line every output carries: what the toy is, and what it was trained on."""
    return _(
        "A toy trained on {votes_from}, not a real language model.",
        votes_from=_(votes_from),
    )
