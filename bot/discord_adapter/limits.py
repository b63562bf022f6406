"""Discord's size limits, and clipping text to fit them."""

from __future__ import annotations

from collections.abc import Sequence

MAX_CONTENT = 2000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_BUTTON_LABEL = 80
MAX_BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_CUSTOM_ID = 100
MAX_CHOICE_NAME = 100
MAX_CHOICES = 25
MAX_MODAL_TITLE = 45

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """The text, cut with an ellipsis if it is longer than `limit` characters."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + ELLIPSIS


def fit_sections(sections: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(title, text) pairs clipped so that one message's embeds stay within Discord's limits."""
    parts = [
        (clip(title, MAX_EMBED_TITLE), clip(text, MAX_EMBED_DESCRIPTION))
        for title, text in sections[:MAX_EMBEDS]
    ]
    excess = _total(parts) - MAX_EMBED_TOTAL
    while excess > 0:
        longest = max(range(len(parts)), key=lambda index: len(parts[index][1]))
        title, text = parts[longest]
        parts[longest] = (title, clip(text, max(1, len(text) - excess)))
        excess = _total(parts) - MAX_EMBED_TOTAL
    return parts


def _total(parts: Sequence[tuple[str, str]]) -> int:
    return sum(len(title) + len(text) for title, text in parts)
