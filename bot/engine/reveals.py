"""Building a step's reveal from what the channel did and what the checker rewarded."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.explanations import channel_favourite, rated_like_checker
from bot.engine.tally import make_bars, percent
from bot.model.records import VoteCount
from bot.model.views import Bar, Chart, Series, VerifierRow
from bot.verifier.verdict import Verdict
from lessons.schema import PredictionStep, VerifierStep

RIGHT_MARK = "✓"
RIGHT_ANSWER = "the right answer"


def choice_bars(step: PredictionStep, counts: Sequence[VoteCount]) -> tuple[Bar, ...]:
    """One bar per choice, the correct one marked."""
    by_choice = {c.value: c.count for c in counts if c.kind == "choice"}
    return make_bars([(c.label, by_choice.get(c.id, 0), c.correct) for c in step.choices])


def choice_notes(step: PredictionStep, bars: Sequence[Bar]) -> tuple[str, ...]:
    """A sentence on how many chose the right answer (nothing for an opinion poll)."""
    total = sum(bar.count for bar in bars)
    right = next((bar for bar in bars if bar.marked), None)
    if right is None or total == 0:
        return ()
    return (f"{right.count} of {total} ({percent(right.share)}) chose the right answer.",)


def share_chart(title: str, bars: Sequence[Bar]) -> Chart:
    """The channel's predictions as percentages, the right answer marked."""
    answered = sum(bar.count for bar in bars)
    marks = tuple(RIGHT_MARK if bar.marked else "" for bar in bars)
    legend = ((RIGHT_MARK, RIGHT_ANSWER),) if any(marks) else ()
    return tally_chart(
        f"{title}: this channel's predictions ({answered} answered)", bars, marks, legend
    )


def tally_chart(
    title: str, bars: Sequence[Bar], marks: tuple[str, ...], legend: tuple[tuple[str, str], ...]
) -> Chart:
    """One bar per tally bar: its percentage of the channel, its count at the end, its mark."""
    return Chart(
        title,
        tuple(bar.label for bar in bars),
        (tally_series("this channel", bars),),
        marks=marks,
        legend=legend,
    )


def tally_series(name: str, bars: Sequence[Bar]) -> Series:
    """The bars' percentages of their total, with 'count of total (share)' at each end."""
    total = sum(bar.count for bar in bars)
    return Series(
        name,
        tuple(100 * bar.share for bar in bars),
        ends=tuple(_count_of(bar.count, total) for bar in bars),
    )


def verifier_rows(
    step: VerifierStep, counts: Sequence[VoteCount], verdicts: dict[str, Verdict]
) -> tuple[VerifierRow, ...]:
    """Each attempt's thumbs tally beside the checker's reward."""
    tally = {(c.kind, c.value): c.count for c in counts}
    return tuple(
        VerifierRow(
            label=attempt.label,
            style=attempt.style,
            thumbs_up=tally.get((f"rate:{attempt.id}", "up"), 0),
            thumbs_down=tally.get((f"rate:{attempt.id}", "down"), 0),
            read=verdicts[attempt.id].read,
            reward=verdicts[attempt.id].reward,
            reason=verdicts[attempt.id].reason,
        )
        for attempt in step.attempts
    )


def verifier_chart(title: str, rows: Sequence[VerifierRow], raters: int) -> Chart:
    """Each attempt's thumbs-up percentage, the attempts the checker rewarded marked."""
    return Chart(
        f"{title}: this channel's thumbs-ups ({raters} rated) beside the checker",
        tuple(row.label for row in rows),
        (Series(
            "thumbs-up",
            tuple(100 * row.up_share for row in rows),
            ends=tuple(_count_of(row.thumbs_up, row.thumbs_up + row.thumbs_down) for row in rows),
        ),),
        value_label="% of this channel's ratings that were a thumbs-up",
        marks=tuple(RIGHT_MARK if row.reward else "" for row in rows),
        legend=((RIGHT_MARK, "the checker gave reward 1: it read the right answer"),),
    )


def _count_of(count: int, total: int) -> str:
    share = count / total if total else 0.0
    return f"{count} of {total} ({percent(share)})"


def verifier_notes(rows: Sequence[VerifierRow]) -> tuple[str, ...]:
    """What the comparison shows, worded for what this channel actually did."""
    rewarded = [row.label for row in rows if row.reward]
    checker_line = f"The checker rewarded only **{', '.join(rewarded) or 'nothing'}**."
    favourite = channel_favourite(rows)
    if favourite is None:
        return ("Nobody rated the attempts this time.", checker_line)
    liked = f"The channel's favourite was **{favourite.label}** ({percent(favourite.up_share)} 👍)."
    blind = (
        "Each 👍/👎 was given before that member saw any checker verdict: the checker opened "
        "for a member only once they had rated every attempt."
    )
    if rated_like_checker(rows):
        verdict = (
            "You rated like a checker this time. But human raters cannot grade millions "
            "of answers a day; a program can."
        )
    else:
        verdict = (
            "A thumbs-up rewarded how the answer sounded; the checker rewarded only the "
            "answer that was right."
        )
    return (blind, liked, checker_line, verdict)
