"""Drawing the engine's cards as plain terminal text: the terminal as a `Surface`."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path

from bot.engine import Action, AssignmentCard, bar_lines, parse_address, percent, text_bar
from bot.i18n import N_, _
from bot.model import (
    Chart,
    Place,
    ReasonCard,
    RevealCard,
    StepCard,
    SummaryCard,
    VerifierRow,
    bar_value,
)
from bot.play.markup import plain
from bot.service import Card, DrawnChart, Redrawn, card_lines, card_title
from lessons.schema import StepKind

WIDTH = 78
THREAD_INDENT = "    "
YOUR_REASON = N_("Your reason, for “{choice}”")
"""The heading of a reason in a discussion where its reader wrote it: the terminal's one reader."""


def rule(title: str = "") -> str:
    """A horizontal rule with an optional title in it."""
    if not title:
        return "─" * WIDTH
    return f"── {title} " + "─" * max(3, WIDTH - len(title) - 4)


def paragraphs(text: str) -> str:
    """Wrap text to the terminal width, keeping blank lines, list items and Markdown."""
    wrapped = [textwrap.fill(line, WIDTH) if line.strip() else "" for line in text.splitlines()]
    return "\n".join(wrapped).strip()


def render_step(card: StepCard, simulated: int = 0) -> str:
    """A step as the terminal shows it; a second vote goes on under the step already shown."""
    if card.vote > 1:
        return render_second_vote(card)
    parts = [
        rule(_("{unit} {number} of {total}", unit=card.unit, number=card.number,
               total=card.total)),
        plain(card.title).upper(),
        "",
        paragraphs(card.body),
    ]
    for section in card.sections:
        parts += ["", f"[{plain(section.heading)}]", paragraphs(section.text)]
    if card.kind == StepKind.MECHANISM and simulated:
        parts += ["", simulated_note(simulated)]
    return "\n".join(parts)


def render_second_vote(card: StepCard) -> str:
    """A second vote on the question just shown: what it asks now, and its chart.

    The step's header and question are not printed again: the vote goes on under them.
    """
    parts = [paragraphs(last_paragraph(card.body))]
    if isinstance(card.chart, Chart):
        parts += ["", *chart_lines(card.chart)]
    return "\n".join(parts)


def last_paragraph(text: str) -> str:
    """The last paragraph of a card's body: what it asks now, after what it already showed."""
    return text.rstrip().rpartition("\n\n")[2]


def chart_lines(chart: Chart) -> list[str]:
    """A bar chart's first series as text: its title, then bar, count and share, label."""
    series = chart.series[0]
    bars = zip(chart.labels, series.values, series.ends, strict=False)
    return [
        paragraphs(plain(chart.title)) + ":",
        *(f"{text_bar(value / 100)} {end} {plain(label)}" for label, value, end in bars),
    ]


def series_lines(chart: Chart) -> list[str]:
    """A bar chart of several series as text: its title, then per label a bar for each series."""
    width = max(len(series.name) for series in chart.series)
    lines = [paragraphs(f"{plain(chart.title)}, {chart.value_label}:")]
    for index, label in enumerate(chart.labels):
        lines.append(plain(label))
        lines += [
            f"  {series.name:<{width}} {text_bar(series.values[index] / 100)} "
            f"{bar_value(series, index)}"
            for series in chart.series
        ]
    return lines


def render_turn(card: StepCard, simulated: int = 0) -> str:
    """A member's next turn at a step: its prompt and the reasons to read, not the step again.

    The turn's prompt is the last paragraph of the card's body.
    """
    parts = [paragraphs(last_paragraph(card.body))]
    if simulated and card.sections:
        parts += ["", simulated_reasons_note(simulated, yours=False)]
    for section in card.sections:
        parts += ["", f"[{plain(section.heading)}]", paragraphs(section.text)]
    return "\n".join(parts)


def simulated_note(simulated: int) -> str:
    """Whose votes a tally counts in play mode."""
    return paragraphs(_(
        "Counted here: your answers and those of {count} simulated classmates, "
        "whose answers follow the weights the lesson's author set, not real people's choices.",
        count=simulated,
    ))


def simulated_reasons_note(simulated: int, yours: bool = True) -> str:
    """Whose the members' reasons are in play mode: the simulated classmates' (and yours)."""
    if yours:
        return paragraphs(_(
            "A simulation: the members' reasons here are the simulated classmates' or yours. "
            "The {count} classmates pick theirs from reasons the lesson's author wrote for them.",
            count=simulated,
        ))
    return paragraphs(_(
        "A simulation: the members' reasons here are the simulated classmates'. The {count} "
        "classmates pick theirs from reasons the lesson's author wrote for them.",
        count=simulated,
    ))


def render_reveal(card: RevealCard, simulated: int, assumed: str = "") -> str:
    """A reveal: bars or raters beside the checker, notes, what classmates were assumed to do."""
    answered = _("{count} answered ({simulated} simulated).", count=card.answered,
                 simulated=simulated)
    parts = [rule(plain(card.title)), answered, ""]
    parts += [plain(line) for line in bar_lines(card.bars, mark=_("<- right"))]
    if card.rows:
        parts += verifier_table(card.rows)
    parts += ["", *(paragraphs(note) for note in card.notes)]
    if assumed:
        parts += ["", paragraphs(assumed)]
    parts += ["", paragraphs(card.explanation)]
    return "\n".join(parts)


def verifier_table(rows: tuple[VerifierRow, ...]) -> list[str]:
    """Thumbs-up share beside the checker's reward, one line per attempt."""
    attempt, thumbs_up, checker = _("attempt"), _("thumbs-up"), _("checker")
    lines = [f"{attempt:<22} {thumbs_up:<31} {checker}"]
    for row in rows:
        thumbs = f"{text_bar(row.up_share, 20)} {percent(row.up_share):>4}"
        read = _("read {read}", read=row.read or "-")
        reward = _("reward {reward} ({read})", reward=row.reward, read=read)
        lines.append(f"{plain(row.label)[:22]:<22} {thumbs:<31} {reward}")
    return lines


def render_summary(card: SummaryCard, simulated: int) -> str:
    """The run's results at the end."""
    parts = [rule(plain(card.title)), *(paragraphs(line) for line in card.lines)]
    if simulated:
        parts += ["", simulated_note(simulated)]
    return "\n".join(parts)


def render_reason(card: ReasonCard, yours: bool = False) -> str:
    """A reason in a discussion: whose it is and for which choice, then its text as written.

    `yours`: the reader wrote it, and reads it headed as theirs.
    """
    heading = _(YOUR_REASON, choice=card.choice) if yours else card.heading
    return "\n".join([f"[{plain(heading)}]", paragraphs(card.text)])


def render_assignment(card: AssignmentCard) -> str:
    """An assignment's card: what it is, when it is due, its counts, and Start while open."""
    parts = [rule(plain(card_title(card))), *(paragraphs(line) for line in card_lines(card))]
    if not card.closed:
        parts += ["", *(f"[{plain(b.label)}]" for b in card.buttons if not b.disabled)]
    return "\n".join(parts)


class TerminalSurface:
    """The terminal as a platform: posted cards are printed; charts saved when a folder is set.

    `assumed` holds, by step id, what the simulated classmates were assumed to do at that
    step (and what came of it); its reveal says so. `reasons` holds, by step id, the reasons
    posted in its discussion thread; `own_reasons` the texts of the reasons the player wrote,
    shown back headed as theirs.
    """

    def __init__(
        self,
        show: Callable[[str], None],
        simulated: int,
        charts: Path | None = None,
        assumed: Mapping[str, str] | None = None,
    ) -> None:
        self.show = show
        self.simulated = simulated
        self.assumed = dict(assumed or {})
        self.reasons: dict[str, list[ReasonCard]] = {}
        self.own_reasons: set[str] = set()
        self.charts = charts
        self.shows_charts = charts is not None
        self.shows_own_steps = True
        self.back_verb = "continue"
        self.latest_step: StepCard | None = None
        self.more: str | None = None
        self.posted = 0
        self.saved: list[Path] = []
        self.run_id: int | None = None
        self.revealed = False
        self.assignment: AssignmentCard | None = None
        self.threads: set[str] = set()

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        """Print a step, a reveal or the results, and save its chart."""
        self.show("\n" + self.rendered(card))
        return self.posted_with(card, chart)

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        """Print a card indented under its thread's heading (shown once per thread)."""
        if under not in self.threads:
            self.threads.add(under)
            self.show("\n" + rule(_("Thread: {title}", title=plain(title))))
            if isinstance(card, ReasonCard) and self.simulated:
                note = simulated_reasons_note(self.simulated)
                self.show("\n" + textwrap.indent(note, THREAD_INDENT))
        if isinstance(card, ReasonCard):
            self.reasons.setdefault(card.step_id, []).append(card)
        self.show("\n" + textwrap.indent(self.rendered(card), THREAD_INDENT))
        return self.posted_with(card, chart)

    def rendered(self, card: Card) -> str:
        """A card as text, noting what the terminal shows last (its step, its More)."""
        self.more = more_address(card) or (None if isinstance(card, StepCard) else self.more)
        if isinstance(card, StepCard):
            self.latest_step = card
            self.run_id = card.run_id
            return render_step(card, self.simulated)
        if isinstance(card, RevealCard):
            self.revealed = True
            return render_reveal(card, self.simulated, self.assumed.get(card.step_id, ""))
        if isinstance(card, AssignmentCard):
            self.run_id = card.run_id
            self.assignment = card
            return render_assignment(card)
        if isinstance(card, ReasonCard):
            return render_reason(card, yours=self.wrote(card))
        # Nothing was counted if the lesson stopped before its first reveal.
        return render_summary(card, self.simulated if self.revealed else 0)

    def wrote(self, card: ReasonCard) -> bool:
        """Whether the player wrote the member's reason the card shows."""
        return not card.by_author and not card.hidden and card.text in self.own_reasons

    def posted_with(self, card: Card, chart: DrawnChart | None) -> str:
        """Save a posted card's chart; the post's reference."""
        if chart is not None:
            self.show(_("Chart saved: {path}", path=self.save_chart(card, chart)))
        self.posted += 1
        return f"terminal:{self.posted}"

    def save_chart(self, card: Card, chart: DrawnChart) -> Path:
        """Write a card's chart as a PNG named after its order and step."""
        assert self.charts is not None
        self.charts.mkdir(parents=True, exist_ok=True)
        path = self.charts / f"{len(self.saved) + 1:02d}-{chart_name(card)}.png"
        path.write_bytes(chart.png)
        self.saved.append(path)
        return path

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        """Nothing to redraw: the terminal shows counts at the reveal.

        An assignment card is kept (`assignment`) and printed again once closed.
        """
        if isinstance(card, AssignmentCard):
            self.assignment = card
            if card.closed:
                self.show("\n" + render_assignment(card))
        return True

    async def message_member(
        self, place: Place, user_id: str, text: str, card: StepCard | None = None
    ) -> bool:
        """The terminal has one reader: a private message is printed (a card as its text)."""
        self.show("\n" + text)
        return True

    async def find(self, channel: str, card: StepCard | RevealCard) -> str | None:
        """Nothing to find: the terminal loses no post."""
        return None


def more_address(card: Card) -> str | None:
    """The address of a card's More button, if it has one."""
    buttons = card.buttons if isinstance(card, StepCard | RevealCard) else ()
    more = (b.address for b in buttons if parse_address(b.address).action is Action.MORE)
    return next(more, None)


def chart_name(card: Card) -> str:
    """A file name for a card's chart: its step id, and what the chart shows."""
    if isinstance(card, StepCard):
        return card.step_id
    if isinstance(card, RevealCard):
        return f"{card.step_id}-results"
    return "lesson-results"
