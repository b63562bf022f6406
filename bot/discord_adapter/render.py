"""Drawing the engine's cards as Discord messages: a text line, embeds, buttons, a chart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord_adapter.buttons import build_view
from bot.discord_adapter.limits import MAX_CONTENT, clip, fit_sections
from bot.discord_adapter.outgoing import CHART_FILENAME, Outgoing
from bot.engine import RevealCard, StepCard, SummaryCard, VerifierRow, bar_lines, percent, text_bar

COLOURS = {
    "narration": 0x5865F2,
    "prediction": 0xFEE75C,
    "verifier": 0xEB459E,
    "free_answer": 0x57F287,
    "takeaway": 0x5865F2,
}
RESULTS_COLOUR = 0x2EB67D
ROW_BAR_WIDTH = 10


def step_content(card: StepCard) -> str:
    """The line above a step: its number, the run and the live counter."""
    parts = [f"**Step {card.number} of {card.total}**", f"run {card.run_id}"]
    if card.takes_answers:
        parts.append(card.counter_text)
    if card.closed and card.takes_answers:
        parts.append("answers closed")
    return clip(" · ".join(parts), MAX_CONTENT)


def step_message(card: StepCard, png: bytes | None = None) -> Outgoing:
    """A step: body and sections (problem, attempts, tables) as embeds, buttons, a chart."""
    sections = [(card.title, card.body), *((s.heading, s.text) for s in card.sections)]
    result = embeds(sections, COLOURS.get(card.kind, RESULTS_COLOUR))
    with_chart(result, png)
    return Outgoing(step_content(card), result, build_view(card.buttons), png)


def reveal_message(card: RevealCard, png: bytes | None) -> Outgoing:
    """A reveal: text bars or raters beside the checker, notes, the explanation, a chart."""
    sections = [(card.title, "\n".join(reveal_lines(card)))]
    if card.explanation.strip():
        sections.append(("Why", card.explanation))
    result = embeds(sections, RESULTS_COLOUR)
    with_chart(result, png)
    return Outgoing(None, result, build_view(card.buttons), png)


def summary_message(card: SummaryCard, png: bytes | None) -> Outgoing:
    """A run's results: participation, per-question lines and a chart."""
    lines = list(card.lines)
    if card.rows:
        lines += ["", "**Thumbs-up (what you liked) beside the checker (what was right):**"]
        lines += verifier_lines(card.rows)
    result = embeds([(card.title, "\n".join(lines))], RESULTS_COLOUR)
    with_chart(result, png)
    return Outgoing(None, result, None, png)


def reveal_lines(card: RevealCard) -> list[str]:
    """The body of a reveal: answered count, bars, verifier rows and notes."""
    lines = [f"**{card.answered} answered**", ""]
    lines += bar_lines(card.bars)
    lines += verifier_lines(card.rows)
    if card.notes:
        lines += ["", *card.notes]
    return lines


def verifier_lines(rows: Sequence[VerifierRow]) -> list[str]:
    """Each sample attempt: the channel's thumbs beside the checker's reading and reward."""
    lines: list[str] = []
    for row in rows:
        mark = "✅" if row.reward else "❌"
        lines += [
            f"**{row.label}**",
            f"`{text_bar(row.up_share, ROW_BAR_WIDTH)}` {percent(row.up_share)} 👍 "
            f"({row.thumbs_up} 👍 · {row.thumbs_down} 👎) │ checker read "
            f"**{row.read or '(nothing)'}** → reward **{row.reward}** {mark}",
        ]
    return lines


def with_chart(result: list[discord.Embed], png: bytes | None) -> None:
    """Show the attached chart inside the message's first embed."""
    if png is not None and result:
        result[0].set_image(url=f"attachment://{CHART_FILENAME}")


def embeds(sections: Sequence[tuple[str, str]], colour: int) -> list[discord.Embed]:
    """One embed per (title, text), clipped to Discord's limits."""
    return [
        discord.Embed(title=title, description=text, colour=colour)
        for title, text in fit_sections(sections)
    ]
