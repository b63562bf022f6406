"""Drawing the engine's cards as plain terminal text: the terminal as a `Surface`."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from bot.engine import RevealCard, StepCard, SummaryCard, VerifierRow, bar_lines, percent, text_bar
from bot.service import Card, DrawnChart

WIDTH = 78
_MARKUP = re.compile(r"\*\*|`")


def plain(text: str) -> str:
    """Light Markdown stripped for the terminal (bold markers and code ticks)."""
    return _MARKUP.sub("", text)


def rule(title: str = "") -> str:
    """A horizontal rule with an optional title in it."""
    if not title:
        return "─" * WIDTH
    return f"── {title} " + "─" * max(3, WIDTH - len(title) - 4)


def paragraphs(text: str) -> str:
    """Wrap text to the terminal width, keeping blank lines and list items."""
    wrapped = [textwrap.fill(line, WIDTH) if line.strip() else "" for line in text.splitlines()]
    return plain("\n".join(wrapped).strip())


def render_step(card: StepCard) -> str:
    """A step as the terminal shows it."""
    parts = [
        rule(f"Step {card.number} of {card.total}"),
        plain(card.title).upper(),
        "",
        paragraphs(card.body),
    ]
    for section in card.sections:
        parts += ["", f"[{plain(section.heading)}]", paragraphs(section.text)]
    return "\n".join(parts)


def render_reveal(card: RevealCard, simulated: int) -> str:
    """A reveal: text bars or the raters-beside-checker table, notes and explanation."""
    parts = [rule(plain(card.title)), f"{card.answered} answered ({simulated} simulated).", ""]
    parts += [plain(line) for line in bar_lines(card.bars, mark="<- right")]
    if card.rows:
        parts += verifier_table(card.rows)
    parts += ["", *(paragraphs(note) for note in card.notes), "", paragraphs(card.explanation)]
    return "\n".join(parts)


def verifier_table(rows: tuple[VerifierRow, ...]) -> list[str]:
    """Thumbs-up share beside the checker's reward, one line per attempt."""
    lines = [f"{'attempt':<22} {'thumbs-up':<31} checker"]
    for row in rows:
        thumbs = f"{text_bar(row.up_share, 20)} {percent(row.up_share):>4}"
        read = f"read {row.read or '-'}"
        lines.append(f"{plain(row.label)[:22]:<22} {thumbs:<31} reward {row.reward} ({read})")
    return lines


def render_summary(card: SummaryCard) -> str:
    """The run's results at the end."""
    parts = [rule(plain(card.title)), *(paragraphs(line) for line in card.lines)]
    if card.rows:
        parts += ["", "Thumbs-up (what the channel liked) beside the checker (what was right):"]
        parts += verifier_table(card.rows)
    return "\n".join(parts)


class TerminalSurface:
    """The terminal as a platform: posted cards are printed, and printed text stays as it is."""

    shows_charts = False

    def __init__(self, show: Callable[[str], None], simulated: int) -> None:
        self.show = show
        self.simulated = simulated
        self.latest_step: StepCard | None = None
        self.posted = 0

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        """Print a step, a reveal or the results."""
        if isinstance(card, StepCard):
            self.latest_step = card
            self.show("\n" + render_step(card))
        elif isinstance(card, RevealCard):
            self.show("\n" + render_reveal(card, self.simulated))
        else:
            self.show("\n" + render_summary(card))
        self.posted += 1
        return f"terminal:{self.posted}"

    async def edit(self, channel: str, ref: str, card: StepCard) -> bool:
        """Nothing to redraw: the terminal shows counts at the reveal."""
        return True
