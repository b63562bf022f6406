"""Which explanation a reveal shows: the variant that fits what the channel did."""

from __future__ import annotations

from collections.abc import Sequence

from bot.model.views import VerifierRow
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
