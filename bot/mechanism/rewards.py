"""The three rewards the toy is trained on, each as every attempt's chance of reward 1.

Every sampled attempt earns reward 1 with its attempt's chance, else 0:

* thumbs-up: the share of raters who gave that attempt a thumbs-up (the verifier table's share);
* checker: the checker's reward for that attempt (1 if its one final answer matches the gold);
* naive checker: 1 if the gold answer appears anywhere in the attempt's text.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_, _
from bot.mechanism.attempts import ToyAttempts


@dataclass(frozen=True)
class Reward:
    """A reward: its name, what earns it in words, and each attempt's chance of reward 1."""

    name: str
    rule: str
    chances: tuple[float, ...]


def thumbs_up_reward(toy: ToyAttempts) -> Reward:
    """Reward 1 with the share of raters who gave the attempt a thumbs-up."""
    chances = tuple(attempt.row.up_share for attempt in toy.attempts)
    return Reward(N_("thumbs-up"), N_("share of raters who gave it 👍"), chances)


def checker_reward(toy: ToyAttempts) -> Reward:
    """The checker's own reward for each attempt."""
    chances = tuple(float(attempt.row.reward) for attempt in toy.attempts)
    return Reward(N_("checker"), N_("1 if the checker passed it"), chances)


def naive_checker_reward(toy: ToyAttempts) -> Reward:
    """Reward 1 when the gold answer appears anywhere in the attempt's text."""
    chances = tuple(attempt.naive_reward for attempt in toy.attempts)
    rule = _("1 if “{gold}” appears anywhere in its text", gold=toy.gold)
    return Reward(N_("naive checker"), rule, chances)
