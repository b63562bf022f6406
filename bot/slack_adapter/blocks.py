"""Block Kit: light Markdown as mrkdwn, blocks within Slack's limits, the engine's cards drawn."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from bot.engine import AssignmentCard, OwnStep, bar_lines, checker_reading, thumbs_tally
from bot.i18n import _, ngettext
from bot.model import (
    Bar,
    Button,
    ReasonCard,
    RevealCard,
    Section,
    StepCard,
    SummaryCard,
    Tone,
    VerifierRow,
    clip,
    render_written,
)
from bot.service import Card, card_lines, card_title, utc_text

Block = dict[str, Any]

MAX_BLOCKS = 50
MAX_ACTIONS = 25
MAX_BUTTON_LABEL = 75
MAX_SECTION_TEXT = 3000
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_TEXT = 3000
MAX_FALLBACK_TEXT = 3000
FENCE = "```"
FENCE_REPAIR = "```\n" * 2
BUTTON_STYLES = {Tone.SUCCESS: "primary", Tone.DANGER: "danger"}

_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\w])")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.MULTILINE)
_PLAIN_MARKUP = re.compile(r"\*\*|(?<![*\w])\*(?=\S)|(?<=\S)\*(?![*\w])|`")
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_FORMAT_MARK = re.compile(r"[*_~`]")
_UNJOINED = "\u200b"  # beside a format mark, no word boundary: the mark opens or closes nothing
_BOLD_MARK = "\x00"
_DUE_MARK = "\x01"


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(text: str) -> str:
    """Convert CommonMark-style light markup to Slack mrkdwn; someone's text shown as typed."""
    return render_written(text, as_typed, lambda bot_text: "".join(
        part if index % 2 else _convert(part)
        for index, part in enumerate(_CODE.split(escape(bot_text)))
    ))


def as_typed(text: str) -> str:
    """Someone's text in mrkdwn as typed: escaped, each format mark kept from pairing."""
    return _FORMAT_MARK.sub(lambda mark: f"{_UNJOINED}{mark[0]}{_UNJOINED}", escape(text))


def _convert(text: str) -> str:
    converted = _LINK.sub(lambda m: f"<{m[2]}|{m[1]}>", text)
    converted = _HEADING.sub(lambda m: f"{_BOLD_MARK}{m[1]}{_BOLD_MARK}", converted)
    converted = _BOLD.sub(lambda m: f"{_BOLD_MARK}{m[1]}{_BOLD_MARK}", converted)
    converted = _ITALIC.sub(lambda m: f"_{m[1]}_", converted)
    return converted.replace(_BOLD_MARK, "*")


def to_plain(text: str) -> str:
    """Strip light markup for plain_text fields (headers, button labels, fallbacks)."""
    return render_written(text, str, lambda bot_text: _PLAIN_MARKUP.sub("", bot_text))


def plain(text: str) -> str:
    """Text without markup, escaped for mrkdwn (titles, labels, notification text)."""
    return escape(to_plain(text))


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
    text = clip(to_plain(text), MAX_HEADER_TEXT)
    return {"type": "header", "text": {"type": "plain_text", "text": text, "emoji": True}}


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


def within_limit(blocks: list[Block], keep_last: int = 0) -> list[Block]:
    """At most 50 blocks: the middle is cut (with a note), the last `keep_last` are kept."""
    if len(blocks) <= MAX_BLOCKS:
        return blocks
    tail = blocks[len(blocks) - keep_last :] if keep_last else []
    head = blocks[: MAX_BLOCKS - len(tail) - 1]
    return [*head, context(_("(Shortened to fit in one Slack message.)")), *tail]


def card_message(card: Card) -> tuple[str, list[Block]]:
    """A card's notification text and blocks."""
    if isinstance(card, StepCard):
        return plain(f"{card.unit} {card.number}/{card.total}: {card.title}"), step_blocks(card)
    if isinstance(card, RevealCard):
        return plain(card.title), reveal_blocks(card)
    if isinstance(card, AssignmentCard):
        return plain(card_title(card)), assignment_blocks(card)
    if isinstance(card, ReasonCard):
        return plain(card.heading), reason_blocks(card)
    return plain(card.title), summary_blocks(card)


def reason_blocks(card: ReasonCard) -> list[Block]:
    """A reason in a discussion thread: whose it is, its text as written, and a host's Hide."""
    blocks = [context(plain(card.heading)), as_written(card.shown_text)]
    return [*blocks, *action_rows(card.buttons)]


def as_written(text: str) -> Block:
    """Someone's text exactly as typed, in plain_text: no mrkdwn, mention or link is read."""
    shown = clip(text, MAX_SECTION_TEXT)
    return {"type": "section", "text": {"type": "plain_text", "text": shown, "emoji": False}}


def section_blocks(part: Section) -> list[Block]:
    """A titled section of a card; someone's text (a member's reason) as written."""
    if part.plain:
        return [divider(), *sections(f"*{plain(part.heading)}*"), as_written(part.text)]
    return [divider(), *sections(f"*{plain(part.heading)}*\n{to_mrkdwn(part.text)}")]


def assignment_blocks(card: AssignmentCard) -> list[Block]:
    """An assignment's card: what it is, when it is due, Start (none once closed), its counts."""
    *lines, counts = card_lines(card, lambda _: _DUE_MARK)
    text = to_mrkdwn("\n".join(lines)).replace(_DUE_MARK, slack_date(card.due_at))
    blocks = [header(card_title(card)), *sections(text)]
    rows = [] if card.closed else action_rows(b for b in card.buttons if not b.disabled)
    return within_limit([*blocks, *rows, context(f"📊 {counts}")])


def slack_date(moment: datetime) -> str:
    """A time each reader sees in their own zone; the UTC text where Slack cannot show it."""
    unix = int(moment.timestamp())
    return f"<!date^{unix}^{{date_short_pretty}} at {{time}}|{utc_text(moment)}>"


def step_blocks(card: StepCard) -> list[Block]:
    """A step's message: title, body, sections, buttons (none once closed) and its counter."""
    rows = [] if card.closed else action_rows(b for b in card.buttons if not b.disabled)
    tail = [*rows, context(status_line(card))]
    return within_limit([*step_body(card), *tail], keep_last=len(tail))


def step_body(card: StepCard) -> list[Block]:
    """A step's title, body and sections (the problem, the attempts, tables)."""
    blocks = [header(f"{card.unit} {card.number}/{card.total} · {card.title}")]
    blocks += sections(to_mrkdwn(card.body))
    for part in card.sections:
        blocks += section_blocks(part)
    return blocks


def own_step_message(own: OwnStep) -> tuple[str, list[Block]]:
    """A member's own step of an assignment, in their direct message: buttons, tally so far."""
    card = own.card
    assert card is not None
    blocks = step_body(card)
    if own.so_far is not None:
        blocks += [divider(), header(own.so_far.title)]
        blocks += tally_blocks(own.so_far.bars, own.so_far.rows)
    where = _(
        "Your own pace, only you see this · step {number} of {total}",
        number=card.number, total=card.total,
    )
    tail = [*action_rows(card.buttons), context(where)]
    text = plain(
        _("Step {number}/{total}: {title}", number=card.number, total=card.total, title=card.title)
    )
    return text, within_limit([*blocks, *tail], keep_last=len(tail))


def status_line(card: StepCard) -> str:
    """The grey line under a step: its live counter, or that answers are closed."""
    if card.superseded:
        return _(
            "⤵️ Posted again below · step {number} of {total}",
            number=card.number, total=card.total,
        )
    if not card.takes_answers:
        return _("{unit} {number} of {total}", unit=card.unit, number=card.number, total=card.total)
    if card.closed:
        return ngettext(
            "🔒 Answers closed · {count} answered",
            "🔒 Answers closed · {count} answered",
            card.answered,
        )
    return _(
        "📊 {counts} · step {number} of {total}",
        counts=card.counter_text, number=card.number, total=card.total,
    )


def reveal_blocks(card: RevealCard) -> list[Block]:
    """A reveal: text bars or raters beside the checker, notes, explanation and Next."""
    answered = ngettext("{count} answered", "{count} answered", card.answered)
    blocks = [header(card.title), context(answered)]
    blocks += tally_blocks(card.bars, card.rows)
    if card.notes:
        blocks += sections("\n".join(to_mrkdwn(note) for note in card.notes))
    if card.explanation:
        blocks += [divider(), *sections(to_mrkdwn(card.explanation))]
    tail = action_rows(b for b in card.buttons if not b.disabled)
    return within_limit([*blocks, *tail], keep_last=len(tail))


def summary_blocks(card: SummaryCard) -> list[Block]:
    """A run's results: a line per question (its chart shows the right answers' shares)."""
    blocks = [header(card.title), *sections("\n".join(to_mrkdwn(line) for line in card.lines))]
    return within_limit(blocks)


def results_messages(card: SummaryCard) -> list[tuple[str, list[Block]]]:
    """The results, then each question's results, in as few messages as Slack's limit allows."""
    messages = [(plain(card.title), summary_blocks(card))]
    for reveal in card.reveals:
        blocks = reveal_blocks(reveal)
        text, last = messages[-1]
        if len(last) + len(blocks) + 1 <= MAX_BLOCKS:
            messages[-1] = (text, [*last, divider(), *blocks])
        else:
            messages.append((plain(reveal.title), blocks))
    return messages


def tally_blocks(bars: Sequence[Bar], rows: Sequence[VerifierRow], mark: str = "✅") -> list[Block]:
    """Text bars with counts and percentages, then the verifier table if there is one."""
    blocks = sections("\n".join(to_mrkdwn(line) for line in bar_lines(bars, mark=mark)))
    if rows:
        headings = [_("*What the channel rated*"), _("*What the checker rewarded*")]
        blocks.append(fields_section(headings))
        blocks += [fields_section(verifier_fields(row)) for row in rows]
    return blocks


def verifier_fields(row: VerifierRow) -> list[str]:
    """One attempt: its thumbs tally on the left, the checker's reward on the right."""
    raters = f"*{plain(row.label)}* ({plain(row.style)})\n{to_mrkdwn(thumbs_tally(row))}"
    return [raters, to_mrkdwn(checker_reading(row))]
