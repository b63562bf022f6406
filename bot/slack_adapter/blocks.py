"""Block Kit building blocks, each kept inside Slack's size limits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine import Button, Tone
from bot.slack_adapter.mrkdwn import to_plain

Block = dict[str, Any]

MAX_BLOCKS = 50
MAX_ACTIONS = 25
MAX_BUTTON_LABEL = 75
MAX_SECTION_TEXT = 3000
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_TEXT = 3000
MAX_FALLBACK_TEXT = 3000
CUT_MARK = "…"
FENCE = "```"
FENCE_REPAIR = "```\n" * 2

BUTTON_STYLES = {Tone.SUCCESS: "primary", Tone.DANGER: "danger"}


def clip(text: str, limit: int) -> str:
    """The text cut to `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - len(CUT_MARK)] + CUT_MARK


def split_text(text: str, limit: int = MAX_SECTION_TEXT) -> list[str]:
    """Pieces of at most `limit` characters, broken at line ends, code fences kept whole."""
    room = limit - len(FENCE_REPAIR)
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, room)
        cut = cut if cut > 0 else room
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip("\n")
    return balance_fences([*pieces, rest] if rest else pieces)


def balance_fences(pieces: list[str]) -> list[str]:
    """Close a code fence a piece leaves open, and reopen it in the next piece."""
    balanced: list[str] = []
    open_fence = False
    for piece in pieces:
        piece = f"{FENCE}\n{piece}" if open_fence else piece
        open_fence = piece.count(FENCE) % 2 == 1
        balanced.append(f"{piece}\n{FENCE}" if open_fence else piece)
    return balanced


def header(text: str) -> Block:
    """A header block (plain text, one line)."""
    plain = clip(to_plain(text), MAX_HEADER_TEXT)
    return {"type": "header", "text": {"type": "plain_text", "text": plain, "emoji": True}}


def sections(mrkdwn: str) -> list[Block]:
    """Section blocks holding mrkdwn text, split to fit the per-section limit."""
    return [
        {"type": "section", "text": {"type": "mrkdwn", "text": piece}}
        for piece in split_text(mrkdwn)
    ]


def fields_section(fields: Sequence[str]) -> Block:
    """A section of up to ten side-by-side mrkdwn fields."""
    return {
        "type": "section",
        "fields": [{"type": "mrkdwn", "text": clip(text, MAX_FIELD_TEXT)} for text in fields[:10]],
    }


def context(mrkdwn: str) -> Block:
    """A small grey line of text."""
    return {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": clip(mrkdwn, MAX_CONTEXT_TEXT)}],
    }


def divider() -> Block:
    """A horizontal rule."""
    return {"type": "divider"}


def button(model: Button) -> Block:
    """A button element whose action_id and value are the engine's address."""
    label = f"{model.emoji} {model.label}" if model.emoji else model.label
    element: Block = {
        "type": "button",
        "action_id": model.address,
        "value": model.address,
        "text": {"type": "plain_text", "text": clip(to_plain(label), MAX_BUTTON_LABEL)},
    }
    if model.tone in BUTTON_STYLES:
        element["style"] = BUTTON_STYLES[model.tone]
    return element


def action_rows(buttons: Iterable[Button]) -> list[Block]:
    """One actions block per button row, each with at most 25 buttons."""
    rows: dict[int, list[Block]] = {}
    for model in buttons:
        rows.setdefault(model.row, []).append(button(model))
    return [
        {"type": "actions", "elements": elements[start : start + MAX_ACTIONS]}
        for _, elements in sorted(rows.items())
        for start in range(0, len(elements), MAX_ACTIONS)
    ]


def without_actions(blocks: Iterable[Block]) -> list[Block]:
    """The blocks of a posted message with its buttons taken out."""
    return [block for block in blocks if block.get("type") != "actions"]


def within_limit(blocks: list[Block], keep_last: int = 0) -> list[Block]:
    """At most 50 blocks: the middle is cut (with a note), the last `keep_last` are kept."""
    if len(blocks) <= MAX_BLOCKS:
        return blocks
    tail = blocks[len(blocks) - keep_last :] if keep_last else []
    head = blocks[: MAX_BLOCKS - len(tail) - 1]
    return [*head, context("(Shortened to fit in one Slack message.)"), *tail]
