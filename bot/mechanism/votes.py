"""Parse thumbs-up counts such as ``flattering=7,careful=2`` and turn them into shares."""

from __future__ import annotations

from collections.abc import Mapping

from bot.mechanism.styles import STYLES


class VotesError(ValueError):
    """The votes text could not be read; the message says why."""


def parse_votes(text: str) -> dict[str, int]:
    """Thumbs-up count per style from 'style=count,...'; unlisted styles get 0."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise VotesError("no votes given; expected e.g. flattering=7,careful=2,hedging=1")
    counts = dict.fromkeys(STYLES, 0)
    seen: set[str] = set()
    for item in items:
        style, count = _parse_item(item)
        if style in seen:
            raise VotesError(f"style listed twice: {style}")
        seen.add(style)
        counts[style] = count
    return counts


def thumbs_up_shares(counts: Mapping[str, int]) -> dict[str, float]:
    """The share of the channel's thumbs-ups each style received (all 0 when there are none)."""
    total = sum(counts.values())
    return {style: count / max(total, 1) for style, count in counts.items()}


def _parse_item(item: str) -> tuple[str, int]:
    style, separator, raw_count = (part.strip() for part in item.partition("="))
    if not separator or not style or not raw_count:
        raise VotesError(f"cannot read {item!r}; expected style=count, e.g. careful=2")
    if style not in STYLES:
        raise VotesError(f"unknown style {style!r}; allowed styles: {', '.join(STYLES)}")
    try:
        count = int(raw_count)
    except ValueError:
        raise VotesError(f"count for {style} is not a whole number: {raw_count!r}") from None
    if count < 0:
        raise VotesError(f"count for {style} cannot be negative: {count}")
    return style, count
