"""The reveal of a free-answer step: who solved it, on which try."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.reveals import RIGHT_MARK, tally_chart
from bot.engine.tally import make_bars, percent
from bot.mechanism.grpo import group_stats, group_text
from bot.model.records import FreeAnswerStats
from bot.model.views import Bar, Chart
from lessons.schema import FreeAnswerStep

FIRST_TRY = "solved on the first try"
AFTER_RETRYING = "solved after trying again"
NOT_SOLVED = "not solved yet"
FIRST_TRY_MARK = "✅"
RETRY_MARK = "🔁"
RETRY_CHART_MARK = "↻"


def free_answer_bars(stats: FreeAnswerStats) -> tuple[Bar, ...]:
    """Members split into solved first try (✅), solved after retrying (🔁), and not solved."""
    retried = stats.solved - stats.first_try_solved
    unsolved = stats.members - stats.solved
    first, retry, rest = make_bars(
        [
            (FIRST_TRY, stats.first_try_solved, True),
            (AFTER_RETRYING, retried, True),
            (NOT_SOLVED, unsolved, False),
        ]
    )
    return (replace(first, mark=FIRST_TRY_MARK), replace(retry, mark=RETRY_MARK), rest)


def free_answer_chart(title: str, bars: tuple[Bar, ...]) -> Chart:
    """The free-answer tally as percentages, first try and retry marked apart."""
    answered = sum(bar.count for bar in bars)
    marks = (RIGHT_MARK, RETRY_CHART_MARK, "")
    legend = ((RIGHT_MARK, FIRST_TRY), (RETRY_CHART_MARK, AFTER_RETRYING))
    heading = f"{title}: this channel's answers ({answered} answered)"
    return tally_chart(heading, bars, marks, legend)


def gold_shown(step: FreeAnswerStep) -> str:
    """The problem's answer as the reveal shows it: with its unit, if the step names one."""
    return f"{step.gold} {step.unit}" if step.unit else step.gold


def free_answer_notes(stats: FreeAnswerStats, gold: str) -> tuple[str, ...]:
    """A sentence on how the channel did, and the gold answer."""
    if stats.members == 0:
        return (f"Nobody answered this time. The answer was **{gold}**.",)
    share = percent(stats.solved / stats.members)
    return (
        f"{stats.members} answered with {stats.attempts} tries in all; "
        f"{stats.solved} ({share}) got reward 1. The answer was **{gold}**.",
    )


def grpo_group_notes(stats: FreeAnswerStats) -> tuple[str, ...]:
    """The channel's first tries as one GRPO group: rewards, mean, std and advantages."""
    if stats.members == 0:
        return ()
    first_try = group_stats(stats.first_try_solved, stats.members - stats.first_try_solved)
    heading = "**This channel as a GRPO group** (each member's first graded try is one rollout):"
    return (heading, *group_text(first_try))
