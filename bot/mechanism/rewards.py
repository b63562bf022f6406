"""The three reward functions, as each style's probability of earning reward 1.

Every sampled answer gets a 0/1 reward drawn with its style's probability:

* thumbs-up: the share of this channel's thumbs-ups that the style received;
* checker: 1 if the checker accepts the style's final answer, else 0;
* naive checker: 1 if the gold answer appears anywhere in the text, else 0.

A careful attempt reaches the gold answer only ``careful_hit_rate`` of the time (otherwise it
stops at its first number, as the sample attempt's first line does), so its checker rewards are
scaled by that rate. A hedge names every candidate, so it always contains the gold.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from bot.mechanism.styles import STYLES

CAREFUL_HIT_RATE = 0.7  # how often a careful attempt re-checks its way to the gold


def reward_probabilities(
    rewards: Mapping[str, float], styles: tuple[str, ...] = STYLES
) -> npt.NDArray[np.float64]:
    """Per-style probability of reward 1, in ``styles`` order (missing styles get 0)."""
    _check_rewards(rewards, styles)
    return np.array([float(rewards.get(style, 0.0)) for style in styles])


def checked_probabilities(
    rewards: Mapping[str, float],
    careful_hit_rate: float = CAREFUL_HIT_RATE,
    styles: tuple[str, ...] = STYLES,
) -> npt.NDArray[np.float64]:
    """Checker-style rewards, with the careful style passing only when it lands on the gold."""
    if not 0.0 <= careful_hit_rate <= 1.0:
        raise ValueError("careful_hit_rate must be between 0 and 1")
    probabilities = reward_probabilities(rewards, styles)
    if "careful" in styles:
        probabilities[styles.index("careful")] *= careful_hit_rate
    return probabilities


def _check_rewards(rewards: Mapping[str, float], styles: tuple[str, ...]) -> None:
    unknown = [name for name in rewards if name not in styles]
    if unknown:
        raise ValueError(f"unknown style(s): {', '.join(unknown)}")
    outside = [name for name, value in rewards.items() if not 0.0 <= value <= 1.0]
    if outside:
        raise ValueError(f"rewards must be between 0 and 1: {', '.join(outside)}")
