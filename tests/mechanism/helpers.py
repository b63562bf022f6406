"""The RLVR lesson's verifier step as the toy sees it, with thumbs counts chosen by the test."""

from __future__ import annotations

from bot.mechanism import (
    CHANNEL_VOTES,
    ToyAttempts,
    TrainingRuns,
    TrainingSettings,
    toy_attempts,
    train_all,
)
from bot.mechanism.cli import source_step
from bot.model.views import VerifierRow

STEP = source_step("rlvr")
ATTEMPTS = STEP.sample_attempts()


def rows_with(thumbs: dict[str, tuple[int, int]]) -> tuple[VerifierRow, ...]:
    """Verifier rows with (up, down) per attempt id; the checker's reward from `expect`."""
    return tuple(
        VerifierRow(
            label=attempt.label,
            style=attempt.style,
            thumbs_up=thumbs.get(attempt.id, (0, 0))[0],
            thumbs_down=thumbs.get(attempt.id, (0, 0))[1],
            read="",
            reward=int(attempt.expect == "correct"),
        )
        for attempt in ATTEMPTS
    )


def lesson_toy(thumbs: dict[str, tuple[int, int]], votes_from: str = CHANNEL_VOTES) -> ToyAttempts:
    """The lesson's attempts with these thumbs counts."""
    return toy_attempts(STEP, rows_with(thumbs), votes_from)


def trained(thumbs: dict[str, tuple[int, int]], seed: int = 0, steps: int = 300) -> TrainingRuns:
    """The three runs trained on these thumbs counts."""
    return train_all(lesson_toy(thumbs), TrainingSettings(steps=steps, seed=seed))
