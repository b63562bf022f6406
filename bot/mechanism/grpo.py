"""The channel as a GRPO group: group mean, sample std and group-relative advantages.

Convention (TRL's GRPOTrainer): advantage = (reward - group mean) / (sample std + 1e-4),
where the sample std uses ddof=1. A group of one has no sample std; it is treated as 0.
The channel's text says the same in plain words, with the 1e-4 written once, as 0.0001.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.i18n import N_, _, decimal

STD_EPSILON = 1e-4
STD_KIND_SAMPLE = N_("the sample standard deviation")
STD_KIND_SINGLE = N_("a group of 1 has no spread; it counts as 0, so its advantage is 0")
STD_KIND_EMPTY = N_("an empty group has no mean and no spread")


@dataclass(frozen=True)
class GroupStats:
    """What GRPO computes for one group of 0/1 rewards.

    ``adv_correct`` / ``adv_wrong`` are None when no member of the group is in that category.
    """

    correct: int
    wrong: int
    mean: float
    std: float
    adv_correct: float | None
    adv_wrong: float | None
    std_kind: str

    @property
    def size(self) -> int:
        """Number of members in the group."""
        return self.correct + self.wrong

    @property
    def all_equal(self) -> bool:
        """True when every member got the same reward (so every advantage is 0)."""
        return self.size > 0 and (self.correct == 0 or self.wrong == 0)


def sample_std(rewards: npt.NDArray[np.float64]) -> float:
    """Sample standard deviation (ddof=1); 0.0 for groups of fewer than two."""
    if rewards.size < 2:
        return 0.0
    return float(np.std(rewards, ddof=1))


def group_advantages(rewards: Sequence[float] | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Group-relative advantages (r - mean) / (sample std + 1e-4) for one group."""
    values = np.asarray(rewards, dtype=np.float64)
    if values.size == 0:
        return values
    advantages: npt.NDArray[np.float64] = (values - values.mean()) / (
        sample_std(values) + STD_EPSILON
    )
    return advantages


def group_stats(correct: int, wrong: int) -> GroupStats:
    """GroupStats for a group with ``correct`` rewards of 1 and ``wrong`` rewards of 0."""
    if correct < 0 or wrong < 0:
        raise ValueError("group counts cannot be negative")
    if correct + wrong == 0:
        return GroupStats(0, 0, 0.0, 0.0, None, None, STD_KIND_EMPTY)
    rewards = np.array([1.0] * correct + [0.0] * wrong)
    mean = float(rewards.mean())
    std = sample_std(rewards)
    return GroupStats(
        correct=correct,
        wrong=wrong,
        mean=mean,
        std=std,
        adv_correct=_advantage(1.0, mean, std) if correct else None,
        adv_wrong=_advantage(0.0, mean, std) if wrong else None,
        std_kind=STD_KIND_SAMPLE if correct + wrong > 1 else STD_KIND_SINGLE,
    )


def group_stats_from_rewards(rewards: Sequence[int]) -> GroupStats:
    """GroupStats from a list of 0/1 rewards, one per member's first graded answer."""
    if any(reward not in (0, 1) for reward in rewards):
        raise ValueError("rewards must be 0 or 1")
    correct = sum(rewards)
    return group_stats(correct, len(rewards) - correct)


def _advantage(reward: float, mean: float, std: float) -> float:
    return (reward - mean) / (std + STD_EPSILON)


def group_text(stats: GroupStats) -> list[str]:
    """Short Markdown-light lines explaining this channel's group as GRPO sees it."""
    if stats.size == 0:
        return [_("No one has a graded answer yet, so there is no group to compare.")]
    lines = [
        _(
            "GRPO would treat this channel as one **group** of sampled answers to the same "
            "question (counts only, no names). Here is its arithmetic."
        ),
        _(
            "**{correct} of {size}** earned reward 1. "
            "Group mean **{mean}**, spread **{std}** ({std_kind}).",
            correct=stats.correct,
            size=stats.size,
            mean=decimal(stats.mean, fixed=True),
            std=decimal(stats.std, fixed=True),
            std_kind=_(stats.std_kind),
        ),
    ]
    lines.append(_advantage_line(stats))
    lines.append(_lesson_line(stats))
    return lines


def _advantage_line(stats: GroupStats) -> str:
    parts = []
    if stats.adv_correct is not None:
        parts.append(
            _("a correct answer gets **{advantage}**", advantage=_signed(stats.adv_correct))
        )
    if stats.adv_wrong is not None:
        parts.append(_("a wrong answer gets **{advantage}**", advantage=_signed(stats.adv_wrong)))
    head = _(
        "Advantage = (reward − mean) / (spread + {epsilon}): ",
        epsilon=decimal(STD_EPSILON, 4, fixed=True),
    )
    return head + ", ".join(parts) + "."


def _signed(value: float) -> str:
    return "0" if abs(value) < 0.005 else decimal(value, fixed=True, signed=True)


def _lesson_line(stats: GroupStats) -> str:
    if stats.size == 1:
        return _(
            "With a group of one there is nothing to compare against, so the advantage is 0 "
            "and nothing is learned."
        )
    if stats.all_equal:
        return _(
            "Everyone scored the same, so every advantage is 0: "
            "a group where everyone scored the same teaches nothing."
        )
    return _(
        "The fewer members who got it right, the lower the mean, so a correct answer stands "
        "further above it and gets a bigger push. A group where everyone scored the same "
        "teaches nothing: all advantages would be 0."
    )
