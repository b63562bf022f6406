"""The lesson's mechanism in numbers: the channel as a GRPO group, and a toy policy trained on it.

Pure computation and text (numpy, matplotlib for the chart); no platform or database imports.
"""

from bot.mechanism.attempts import (
    CHANNEL_VOTES,
    COMMAND_LINE_VOTES,
    ToyAttempt,
    ToyAttempts,
    toy_attempts,
    toy_disclaimer,
)
from bot.mechanism.grpo import (
    GroupStats,
    group_advantages,
    group_stats,
    group_stats_from_rewards,
    group_text,
)
from bot.mechanism.report import report_lines
from bot.mechanism.rewards import Reward
from bot.mechanism.story import assumptions_line, reward_lines, runs_text
from bot.mechanism.table import probability_table, sparkline_rows
from bot.mechanism.training import (
    TrainingRun,
    TrainingRuns,
    TrainingSettings,
    train_all,
    train_policy,
)
from bot.mechanism.votes import VotesError, parse_votes

__all__ = [
    "CHANNEL_VOTES",
    "COMMAND_LINE_VOTES",
    "GroupStats",
    "Reward",
    "ToyAttempt",
    "ToyAttempts",
    "TrainingRun",
    "TrainingRuns",
    "TrainingSettings",
    "VotesError",
    "assumptions_line",
    "group_advantages",
    "group_stats",
    "group_stats_from_rewards",
    "group_text",
    "parse_votes",
    "probability_table",
    "report_lines",
    "reward_lines",
    "runs_text",
    "sparkline_rows",
    "toy_attempts",
    "toy_disclaimer",
    "train_all",
    "train_policy",
]
