"""Building a step's reveal from what the channel did and what the checker rewarded."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.tally import make_bars, percent
from bot.model.records import VoteCount
from bot.model.views import Bar, Chart, Series, VerifierRow
from bot.verifier.verdict import Verdict
from lessons.schema import PredictionStep, VerifierStep


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
    """A one-series chart of the channel's shares."""
    labels = tuple(bar.label for bar in bars)
    return Chart(title, labels, (Series("this channel", tuple(bar.share for bar in bars)),))


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


def verifier_chart(title: str, rows: Sequence[VerifierRow]) -> Chart:
    """Thumbs-up share and checker reward per attempt, side by side."""
    return Chart(
        title,
        tuple(row.label for row in rows),
        (
            Series("thumbs-up share", tuple(row.up_share for row in rows)),
            Series("checker reward", tuple(float(row.reward) for row in rows)),
        ),
    )


def verifier_notes(rows: Sequence[VerifierRow]) -> tuple[str, ...]:
    """What the comparison shows, worded for what this channel actually did."""
    rated = [row for row in rows if row.thumbs_up + row.thumbs_down]
    rewarded = [row.label for row in rows if row.reward]
    checker_line = f"The checker rewarded only **{', '.join(rewarded) or 'nothing'}**."
    if not rated:
        return ("Nobody rated the attempts this time.", checker_line)
    favourite = max(rated, key=lambda row: (row.up_share, row.thumbs_up))
    liked = f"The channel's favourite was **{favourite.label}** ({percent(favourite.up_share)} 👍)."
    blind = (
        "Each 👍/👎 was given before that member saw any checker verdict: the checker opened "
        "for a member only once they had rated every attempt."
    )
    if favourite.reward:
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
