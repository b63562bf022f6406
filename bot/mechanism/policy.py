"""A softmax policy over answer styles: probabilities, sampling and a policy-gradient step."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def softmax(logits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Probabilities from logits, computed stably."""
    shifted = np.exp(logits - logits.max())
    result: npt.NDArray[np.float64] = shifted / shifted.sum()
    return result


def sample_group(
    probs: npt.NDArray[np.float64], group_size: int, rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """Sample ``group_size`` style indices from the policy's probabilities."""
    picks: npt.NDArray[np.int64] = rng.choice(probs.size, size=group_size, p=probs)
    return picks


def log_prob_gradient(
    probs: npt.NDArray[np.float64],
    picks: npt.NDArray[np.int64],
    advantages: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Mean over the group of advantage × ∇ log π(pick), w.r.t. the logits.

    For a softmax, ∇ log π(a) = onehot(a) − π.
    """
    weighted_picks = np.bincount(picks, weights=advantages, minlength=probs.size)
    gradient: npt.NDArray[np.float64] = (weighted_picks - advantages.sum() * probs) / picks.size
    return gradient


def policy_gradient_step(
    logits: npt.NDArray[np.float64],
    picks: npt.NDArray[np.int64],
    advantages: npt.NDArray[np.float64],
    learning_rate: float,
) -> npt.NDArray[np.float64]:
    """New logits after one gradient-ascent step on the advantage-weighted log-probs."""
    gradient = log_prob_gradient(softmax(logits), picks, advantages)
    updated: npt.NDArray[np.float64] = logits + learning_rate * gradient
    return updated
