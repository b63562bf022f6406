"""GRPO training of the toy style policy, one run per reward function.

Each step samples a group of ``group_size`` styles from the policy, draws each one's 0/1 reward
(see ``bot.mechanism.rewards``), turns the rewards into group-relative advantages
(``bot.mechanism.grpo``) and takes one policy-gradient step on the logits.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.mechanism.grpo import group_advantages
from bot.mechanism.policy import policy_gradient_step, sample_group, softmax
from bot.mechanism.rewards import CAREFUL_HIT_RATE, checked_probabilities, reward_probabilities
from bot.mechanism.styles import STYLES

DEFAULT_STEPS = 300
DEFAULT_GROUP_SIZE = 8
DEFAULT_LEARNING_RATE = 0.1
DEFAULT_RECORD_EVERY = 10

THUMBS_UP = "thumbs-up"
CHECKER = "checker"
NAIVE_CHECKER = "naive checker"


@dataclass(frozen=True)
class TrainingSettings:
    """Hyper-parameters shared by the three runs."""

    steps: int = DEFAULT_STEPS
    group_size: int = DEFAULT_GROUP_SIZE
    learning_rate: float = DEFAULT_LEARNING_RATE
    record_every: int = DEFAULT_RECORD_EVERY
    seed: int = 0


@dataclass(frozen=True)
class TrainingRun:
    """One run: its reward's name, the styles, and (step, probabilities) every few steps."""

    name: str
    styles: tuple[str, ...]
    reward_probs: tuple[float, ...]
    history: tuple[tuple[int, tuple[float, ...]], ...]

    @property
    def steps(self) -> int:
        """Number of training steps taken."""
        return self.history[-1][0]

    @property
    def final_probs(self) -> dict[str, float]:
        """Style → probability after the last step."""
        return dict(zip(self.styles, self.history[-1][1], strict=True))

    @property
    def preferred_style(self) -> str:
        """The style with the highest final probability."""
        final = self.history[-1][1]
        return self.styles[int(np.argmax(final))]


@dataclass(frozen=True)
class TrainingRuns:
    """The three runs: thumbs-up reward, checker reward, naive-checker reward."""

    thumbs_up: TrainingRun
    checker: TrainingRun
    naive_checker: TrainingRun

    def __iter__(self) -> Iterator[TrainingRun]:
        """Iterate in display order."""
        return iter((self.thumbs_up, self.checker, self.naive_checker))


def train_policy(
    name: str,
    reward_probs: npt.NDArray[np.float64],
    settings: TrainingSettings,
    styles: tuple[str, ...] = STYLES,
) -> TrainingRun:
    """Train a uniform softmax policy with GRPO against per-style reward probabilities."""
    _check_settings(settings)
    rng = np.random.default_rng(settings.seed)
    logits = np.zeros(len(styles))
    history = [(0, _rounded(softmax(logits)))]
    for step in range(1, settings.steps + 1):
        logits = _grpo_step(logits, reward_probs, settings, rng)
        if step % settings.record_every == 0 or step == settings.steps:
            history.append((step, _rounded(softmax(logits))))
    return TrainingRun(name, styles, _rounded(reward_probs), tuple(history))


def train_all(
    thumbs_up_shares: Mapping[str, float],
    checker_rewards: Mapping[str, float],
    naive_rewards: Mapping[str, float],
    seed: int = 0,
    steps: int = DEFAULT_STEPS,
    careful_hit_rate: float = CAREFUL_HIT_RATE,
) -> TrainingRuns:
    """Train the three runs with the same seed and settings."""
    settings = TrainingSettings(steps=steps, seed=seed)
    return TrainingRuns(
        thumbs_up=train_policy(THUMBS_UP, reward_probabilities(thumbs_up_shares), settings),
        checker=train_policy(
            CHECKER, checked_probabilities(checker_rewards, careful_hit_rate), settings
        ),
        naive_checker=train_policy(
            NAIVE_CHECKER, checked_probabilities(naive_rewards, careful_hit_rate), settings
        ),
    )


def _grpo_step(
    logits: npt.NDArray[np.float64],
    reward_probs: npt.NDArray[np.float64],
    settings: TrainingSettings,
    rng: np.random.Generator,
) -> npt.NDArray[np.float64]:
    picks = sample_group(softmax(logits), settings.group_size, rng)
    rewards = (rng.random(picks.size) < reward_probs[picks]).astype(np.float64)
    return policy_gradient_step(logits, picks, group_advantages(rewards), settings.learning_rate)


def _rounded(values: npt.NDArray[np.float64]) -> tuple[float, ...]:
    return tuple(round(float(value), 4) for value in values)


def _check_settings(settings: TrainingSettings) -> None:
    if settings.steps < 1 or settings.group_size < 2 or settings.record_every < 1:
        raise ValueError("steps and record_every must be >= 1 and group_size >= 2")
    if settings.learning_rate <= 0:
        raise ValueError("learning_rate must be positive")
