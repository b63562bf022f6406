"""GRPO training of the toy policy over the lesson's attempts, one run per reward.

Each step samples a group of ``group_size`` attempts from the policy, draws each one's 0/1 reward
with its attempt's chance (``bot.mechanism.rewards``), turns the rewards into group-relative
advantages (``bot.mechanism.grpo``) and takes one policy-gradient step on the logits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.mechanism.attempts import ToyAttempts
from bot.mechanism.grpo import group_advantages
from bot.mechanism.policy import policy_gradient_step, sample_group, softmax
from bot.mechanism.rewards import Reward, checker_reward, naive_checker_reward, thumbs_up_reward

DEFAULT_STEPS = 300
DEFAULT_GROUP_SIZE = 8
DEFAULT_LEARNING_RATE = 0.1
DEFAULT_RECORD_EVERY = 10


@dataclass(frozen=True)
class TrainingSettings:
    """The assumed numbers shared by the three runs."""

    steps: int = DEFAULT_STEPS
    group_size: int = DEFAULT_GROUP_SIZE
    learning_rate: float = DEFAULT_LEARNING_RATE
    record_every: int = DEFAULT_RECORD_EVERY
    seed: int = 0


@dataclass(frozen=True)
class TrainingRun:
    """One run: its reward, the attempts, probabilities every few steps, and the rewards drawn.

    ``sampled[i]`` counts how often attempt i was picked over the run, ``earned[i]`` how many of
    those picks drew reward 1.
    """

    reward: Reward
    labels: tuple[str, ...]
    history: tuple[tuple[int, tuple[float, ...]], ...]
    sampled: tuple[int, ...]
    earned: tuple[int, ...]

    @property
    def name(self) -> str:
        """The reward's name."""
        return self.reward.name

    @property
    def steps(self) -> int:
        """Number of training steps taken."""
        return self.history[-1][0]

    @property
    def final_probs(self) -> dict[str, float]:
        """Attempt label → probability after the last step."""
        return dict(zip(self.labels, self.history[-1][1], strict=True))

    @property
    def favourite(self) -> str:
        """The attempt with the highest final probability."""
        return self.labels[int(np.argmax(self.history[-1][1]))]


@dataclass(frozen=True)
class TrainingRuns:
    """The three runs (thumbs-up, checker, naive checker), their settings and the votes' source."""

    thumbs_up: TrainingRun
    checker: TrainingRun
    naive_checker: TrainingRun
    settings: TrainingSettings
    votes_from: str

    def __iter__(self) -> Iterator[TrainingRun]:
        """Iterate in display order."""
        return iter((self.thumbs_up, self.checker, self.naive_checker))


def train_policy(
    reward: Reward, labels: tuple[str, ...], settings: TrainingSettings
) -> TrainingRun:
    """Train a uniform softmax policy over the attempts with GRPO against one reward."""
    _check(reward, labels, settings)
    rng = np.random.default_rng(settings.seed)
    chances = np.array(reward.chances, dtype=np.float64)
    logits = np.zeros(len(labels))
    sampled, earned = np.zeros(len(labels), np.int64), np.zeros(len(labels), np.int64)
    history = [(0, _rounded(softmax(logits)))]
    for step in range(1, settings.steps + 1):
        logits, picks, rewards = _grpo_step(logits, chances, settings, rng)
        sampled += np.bincount(picks, minlength=len(labels))
        earned += np.bincount(picks, weights=rewards, minlength=len(labels)).astype(np.int64)
        if step % settings.record_every == 0 or step == settings.steps:
            history.append((step, _rounded(softmax(logits))))
    return TrainingRun(reward, labels, tuple(history), _ints(sampled), _ints(earned))


def train_all(toy: ToyAttempts, settings: TrainingSettings) -> TrainingRuns:
    """Train the three runs on the toy's attempts with the same settings and seed."""
    return TrainingRuns(
        thumbs_up=train_policy(thumbs_up_reward(toy), toy.labels, settings),
        checker=train_policy(checker_reward(toy), toy.labels, settings),
        naive_checker=train_policy(naive_checker_reward(toy), toy.labels, settings),
        settings=settings,
        votes_from=toy.votes_from,
    )


def _grpo_step(
    logits: npt.NDArray[np.float64],
    chances: npt.NDArray[np.float64],
    settings: TrainingSettings,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    picks = sample_group(softmax(logits), settings.group_size, rng)
    rewards = (rng.random(picks.size) < chances[picks]).astype(np.float64)
    updated = policy_gradient_step(logits, picks, group_advantages(rewards), settings.learning_rate)
    return updated, picks, rewards


def _rounded(values: npt.NDArray[np.float64]) -> tuple[float, ...]:
    return tuple(round(float(value), 4) for value in values)


def _ints(values: npt.NDArray[np.int64]) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


def _check(reward: Reward, labels: tuple[str, ...], settings: TrainingSettings) -> None:
    if len(reward.chances) != len(labels) or not labels:
        raise ValueError("the reward needs one chance per attempt")
    if any(not 0.0 <= chance <= 1.0 for chance in reward.chances):
        raise ValueError("reward chances must be between 0 and 1")
    if settings.steps < 1 or settings.group_size < 2 or settings.record_every < 1:
        raise ValueError("steps and record_every must be >= 1 and group_size >= 2")
    if settings.learning_rate <= 0:
        raise ValueError("learning_rate must be positive")
