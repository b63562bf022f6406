"""The lesson's mechanism in numbers: the channel as a GRPO group, and a toy policy trained on it.

Pure computation and text (numpy, matplotlib for the chart); no platform or database imports.
"""

from bot.mechanism.grpo import (
    GroupStats,
    group_advantages,
    group_stats,
    group_stats_from_rewards,
    group_text,
)
from bot.mechanism.report import report_lines
from bot.mechanism.story import runs_text
from bot.mechanism.styles import STYLES, TOY_DISCLAIMER
from bot.mechanism.table import probability_table, sparkline_rows, table_text
from bot.mechanism.training import (
    TrainingRun,
    TrainingRuns,
    TrainingSettings,
    train_all,
    train_policy,
)
from bot.mechanism.votes import VotesError, parse_votes, thumbs_up_shares

__all__ = [
    "STYLES",
    "TOY_DISCLAIMER",
    "GroupStats",
    "TrainingRun",
    "TrainingRuns",
    "TrainingSettings",
    "VotesError",
    "group_advantages",
    "group_stats",
    "group_stats_from_rewards",
    "group_text",
    "parse_votes",
    "probability_table",
    "report_lines",
    "runs_text",
    "sparkline_rows",
    "table_text",
    "thumbs_up_shares",
    "train_all",
    "train_policy",
]
