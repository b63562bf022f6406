"""How a verifier step's reveal reads the channel's ratings beside the checker's rewards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.tally import RIGHT_MARK, count_of, percent
from bot.i18n import _
from bot.model.views import Chart, Series, VerifierRow
from lessons.schema import VerifierStep


def rated_rows(rows: Sequence[VerifierRow]) -> list[VerifierRow]:
    """The attempts somebody rated."""
    return [row for row in rows if row.thumbs_up + row.thumbs_down]


def channel_favourite(rows: Sequence[VerifierRow]) -> VerifierRow | None:
    """The attempt with the highest thumbs-up share (None if nobody rated)."""
    rated = rated_rows(rows)
    return max(rated, key=lambda row: (row.up_share, row.thumbs_up)) if rated else None


def rated_like_checker(rows: Sequence[VerifierRow]) -> bool:
    """Whether most raters gave a thumbs-up to exactly the attempts the checker rewarded."""
    rated = rated_rows(rows)
    agrees = [(row.thumbs_up > row.thumbs_down) == bool(row.reward) for row in rated]
    return bool(rated) and all(agrees)


def favoured_unrewarded(rows: Sequence[VerifierRow]) -> bool:
    """Whether the channel's favourite attempt earned no reward."""
    favourite = channel_favourite(rows)
    return favourite is not None and not favourite.reward


def verifier_explanation(step: VerifierStep, rows: Sequence[VerifierRow]) -> str:
    """The variant written for how this channel rated, else the step's explanation."""
    variants = step.explanations
    if variants.rated_like_checker and rated_like_checker(rows):
        return variants.rated_like_checker
    if variants.favoured_unrewarded and favoured_unrewarded(rows):
        return variants.favoured_unrewarded
    return step.explanation


def verifier_chart(title: str, rows: Sequence[VerifierRow], raters: int) -> Chart:
    """Each attempt's thumbs-up percentage, the attempts the checker rewarded marked."""
    return Chart(
        _(
            "{title}: this channel's thumbs-ups ({raters} rated) beside the checker",
            title=title,
            raters=raters,
        ),
        tuple(row.label for row in rows),
        (Series(
            _("thumbs-up"),
            tuple(100 * row.up_share for row in rows),
            ends=tuple(count_of(row.thumbs_up, row.thumbs_up + row.thumbs_down) for row in rows),
        ),),
        value_label=_(
            "{percent_sign} of this channel's ratings that were a thumbs-up", percent_sign="%"
        ),
        marks=tuple(RIGHT_MARK if row.reward else "" for row in rows),
        legend=((RIGHT_MARK, _("the checker gave reward 1: it read the right answer")),),
    )


def verifier_notes(rows: Sequence[VerifierRow]) -> tuple[str, ...]:
    """What the comparison shows, worded for what this channel actually did."""
    rewarded = [row.label for row in rows if row.reward]
    checker_line = _(
        "The checker rewarded only **{rewarded}**.",
        rewarded=", ".join(rewarded) or _("nothing"),
    )
    favourite = channel_favourite(rows)
    if favourite is None:
        return (_("Nobody rated the attempts this time."), checker_line)
    liked = _(
        "The channel's favourite was **{label}** ({share} 👍).",
        label=favourite.label,
        share=percent(favourite.up_share),
    )
    blind = _("Every 👍/👎 was given before its rater saw the checker.")
    if rated_like_checker(rows):
        verdict = _(
            "You rated like a checker this time: the answer that was right, not the one "
            "that sounded right."
        )
    else:
        verdict = _("A 👍 rewarded how an answer sounded; the checker, only a right one.")
    return (blind, liked, checker_line, verdict)
