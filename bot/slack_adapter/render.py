"""The engine's cards drawn as Block Kit messages."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import (
    Bar,
    RevealCard,
    StepCard,
    SummaryCard,
    VerifierRow,
    bar_lines,
    percent,
    text_bar,
)
from bot.slack_adapter.blocks import (
    Block,
    action_rows,
    context,
    divider,
    fields_section,
    header,
    sections,
    within_limit,
)
from bot.slack_adapter.mrkdwn import escape, to_mrkdwn, to_plain

ROW_BAR_WIDTH = 10


def step_blocks(card: StepCard) -> list[Block]:
    """A step's message: title, body, sections, buttons (none once closed) and its counter."""
    blocks = [header(f"Step {card.number}/{card.total} · {card.title}")]
    blocks += sections(to_mrkdwn(card.body))
    for part in card.sections:
        blocks += [divider(), *sections(f"*{_plain(part.heading)}*\n{to_mrkdwn(part.text)}")]
    rows = [] if card.closed else action_rows(b for b in card.buttons if not b.disabled)
    tail = [*rows, context(status_line(card))]
    return within_limit([*blocks, *tail], keep_last=len(tail))


def status_line(card: StepCard) -> str:
    """The grey line under a step: its live counter, or that answers are closed."""
    if not card.takes_answers:
        return f"Step {card.number} of {card.total}"
    if card.closed:
        return f"🔒 Answers closed · {card.answered} answered"
    return f"📊 {card.counter_text} · step {card.number} of {card.total}"


def reveal_blocks(card: RevealCard) -> list[Block]:
    """A reveal: text bars or raters beside the checker, notes, explanation and Next."""
    blocks = [header(card.title), context(f"{card.answered} answered")]
    blocks += tally_blocks(card.bars, card.rows)
    if card.notes:
        blocks += sections("\n".join(to_mrkdwn(note) for note in card.notes))
    if card.explanation:
        blocks += [divider(), *sections(to_mrkdwn(card.explanation))]
    tail = action_rows(card.buttons)
    return within_limit([*blocks, *tail], keep_last=len(tail))


def summary_blocks(card: SummaryCard) -> list[Block]:
    """A run's results: its lines, right-answer bars and raters beside the checker."""
    blocks = [header(card.title), *sections("\n".join(to_mrkdwn(line) for line in card.lines))]
    blocks += tally_blocks(card.bars, card.rows, mark="")
    return within_limit(blocks)


def tally_blocks(bars: Sequence[Bar], rows: Sequence[VerifierRow], mark: str = "✅") -> list[Block]:
    """Text bars with counts and percentages, then the verifier table if there is one."""
    blocks = sections("\n".join(to_mrkdwn(line) for line in bar_lines(bars, mark=mark)))
    if rows:
        blocks.append(fields_section(["*What the channel rated*", "*What the checker rewarded*"]))
        blocks += [fields_section(verifier_fields(row)) for row in rows]
    return blocks


def verifier_fields(row: VerifierRow) -> list[str]:
    """One attempt: its thumbs tally on the left, the checker's reward on the right."""
    bar = text_bar(row.up_share, ROW_BAR_WIDTH)
    raters = (
        f"*{_plain(row.label)}* ({_plain(row.style)})\n"
        f"`{bar}` {percent(row.up_share)} 👍 · 👍 {row.thumbs_up} 👎 {row.thumbs_down}"
    )
    mark = "✅" if row.reward else "❌"
    checker = f"read *{_plain(row.read) or '(nothing)'}*\nreward *{row.reward}* {mark}"
    return [raters, checker]


def step_fallback(card: StepCard) -> str:
    """Notification text for a step message."""
    return _plain(f"Step {card.number}/{card.total}: {card.title}")


def title_fallback(title: str) -> str:
    """Notification text for a reveal or results message."""
    return _plain(title)


def _plain(text: str) -> str:
    return escape(to_plain(text))
