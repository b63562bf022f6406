"""Neutral render models: what to show, for any platform to draw."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from bot.i18n import N_, _, ngettext


class Tone(StrEnum):
    """A button's emphasis; adapters map it to their platform's styles."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class Button:
    """A clickable action on a card; `address` is its custom_id."""

    address: str
    label: str
    tone: Tone = Tone.SECONDARY
    row: int = 0
    host_only: bool = False
    disabled: bool = False
    emoji: str = ""


@dataclass(frozen=True)
class Section:
    """A titled block of text within a card, such as one sample attempt.

    `plain` marks text someone wrote (a member's reason): shown as plain text, never markup.
    """

    heading: str
    text: str
    plain: bool = False


@dataclass(frozen=True)
class Bar:
    """One bar of a tally: a label, a count, its share of the total and how it is marked.

    `mark` is the bar's own mark in text, shown instead of the platform's right-answer mark.
    """

    label: str
    count: int
    share: float
    marked: bool = False
    mark: str = ""


@dataclass(frozen=True)
class Series:
    """One named series of a chart, with an optional colour.

    Values are percentages (0..100) in a bar chart and probabilities (0..1) in a line chart;
    `ends` holds the text at each bar's end, such as "3 of 12 (25%)".
    """

    name: str
    values: tuple[float, ...]
    colour: str = ""
    ends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chart:
    """Data for a bar chart of percentages, one bar per label; adapters draw it as text or PNG.

    `marks` holds a mark per label ("" for none), such as "✓" on the right answer;
    `legend` pairs each mark with what it means, such as ("✓", "the right answer").
    """

    title: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    value_label: str = "% of this channel"
    marks: tuple[str, ...] = ()
    legend: tuple[tuple[str, str], ...] = ()

    @property
    def caption(self) -> str:
        """The legend as one line, e.g. '✓ first try   ↻ after retrying'."""
        return "   ".join(f"{mark} {meaning}" for mark, meaning in self.legend)

    def mark_of(self, index: int) -> str:
        """The mark of the bar at `index`, "" for none."""
        return self.marks[index] if index < len(self.marks) else ""


@dataclass(frozen=True)
class LinePanel:
    """One panel of a line chart: series over shared x positions."""

    title: str
    x: tuple[int, ...]
    series: tuple[Series, ...]


@dataclass(frozen=True)
class LineChart:
    """Data for a line chart of one or more panels side by side."""

    title: str
    panels: tuple[LinePanel, ...]
    x_label: str = N_("step")
    y_label: str = N_("probability")


AnyChart = Chart | LineChart


@dataclass(frozen=True)
class VerifierRow:
    """One sample attempt at reveal: what the channel's raters said beside the checker."""

    label: str
    style: str
    thumbs_up: int
    thumbs_down: int
    read: str
    reward: int
    reason: str = ""

    @property
    def up_share(self) -> float:
        """Share of raters who gave it a thumbs-up."""
        total = self.thumbs_up + self.thumbs_down
        return self.thumbs_up / total if total else 0.0


@dataclass(frozen=True)
class StepCard:
    """The message for one step while it is open (or after, with buttons disabled)."""

    run_id: int
    step_id: str
    kind: str
    number: int
    total: int
    title: str
    body: str
    sections: tuple[Section, ...] = ()
    buttons: tuple[Button, ...] = ()
    answered: int = 0
    takes_answers: bool = False
    closed: bool = False
    chart: AnyChart | None = None
    superseded: bool = False
    """An older copy of a step posted again: its buttons are off, the new copy takes clicks."""
    vote: int = 1
    """Which vote the card takes: 2 for a question's second vote (a peer round's)."""
    unit: str = N_("Step")
    """What `number` counts: a lesson's steps, or a recall check's questions."""

    @property
    def counter_text(self) -> str:
        """The live counter line, e.g. '12 answered' ('12 answered again' at a second vote)."""
        if self.superseded:
            return _("posted again below")
        if not self.takes_answers:
            return ""
        if self.vote > 1:
            return ngettext("{count} answered again", "{count} answered again", self.answered)
        return ngettext("{count} answered", "{count} answered", self.answered)

    @property
    def message_key(self) -> str:
        """What the card's posted message is remembered by: the step, and its vote after one."""
        return self.step_id if self.vote == 1 else f"{self.step_id}~{self.vote}"

    @property
    def thread_key(self) -> str:
        """What the thread under the card's message is remembered by once all of it is posted."""
        return f"{self.message_key}~why"


@dataclass(frozen=True)
class RevealCard:
    """What a step's reveal shows: tallies, the checker beside the raters, the explanation."""

    run_id: int
    step_id: str
    title: str
    explanation: str
    answered: int
    bars: tuple[Bar, ...] = ()
    rows: tuple[VerifierRow, ...] = ()
    notes: tuple[str, ...] = ()
    chart: Chart | None = None
    buttons: tuple[Button, ...] = ()


@dataclass(frozen=True)
class Form:
    """A one-field form a member fills in privately: what it asks, how long the answer may be."""

    title: str
    label: str
    placeholder: str
    max_length: int
    hint: str = ""
    submit: str = N_("Submit")
    min_length: int = 1

    def translated(self) -> Form:
        """The form's words in the current language; its lengths as they are."""
        return replace(
            self,
            title=_(self.title),
            label=_(self.label),
            placeholder=_(self.placeholder),
            hint=_(self.hint) if self.hint else "",
            submit=_(self.submit),
        )


HIDDEN_REASON = N_("Hidden by a host.")


@dataclass(frozen=True)
class ReasonCard:
    """One reason for a choice, posted in a question's discussion: a member's or the author's.

    A member's is anonymous. `text` is what someone wrote: shown as plain text, never markup.
    """

    run_id: int
    step_id: str
    choice: str
    """The label of the choice the reason argues for."""
    text: str
    by_author: bool = False
    hidden: bool = False
    buttons: tuple[Button, ...] = ()
    """The host's Hide, on a member's reason."""
    reason_id: int | None = None
    """The member's reason shown (its number for hosts); None for the author's."""

    @classmethod
    def of_hidden(cls, run_id: int, reason_id: int, step_id: str = "") -> ReasonCard:
        """What the post of a reason a host hid becomes: that it was hidden, and no Hide."""
        return cls(run_id, step_id, "", "", hidden=True, reason_id=reason_id)

    @property
    def chart(self) -> None:
        """A reason comes without a chart."""
        return None

    @property
    def heading(self) -> str:
        """Whose reason it is and for which choice, without naming anyone."""
        if self.hidden:
            return _("A member's reason")
        if self.by_author:
            return _("The lesson's author, for “{choice}”", choice=self.choice)
        return _("A member, for “{choice}”", choice=self.choice)

    @property
    def message_key(self) -> str:
        """What the post showing a member's reason is remembered by, to redraw it once hidden."""
        return f"~reason{self.reason_id}"

    @property
    def shown_text(self) -> str:
        """The text as written, or that a host hid it."""
        return _(HIDDEN_REASON) if self.hidden else self.text


@dataclass(frozen=True)
class Discussion:
    """A question held for a second vote instead of its reveal (a peer round's split vote).

    `closed` is the first vote's card, closed; `card` the one that takes the second vote,
    showing the split without the right answer; `reasons` go in a thread under it.
    """

    closed: StepCard
    card: StepCard
    reasons: tuple[ReasonCard, ...] = ()
    thread_title: str = ""

    def thread_posts(self) -> tuple[tuple[str, ReasonCard], ...]:
        """Each reason for the thread, with the key its post is remembered by once posted."""
        key = self.card.thread_key
        return tuple((f"{key}{n}", reason) for n, reason in enumerate(self.reasons, 1))


@dataclass(frozen=True)
class Receipt:
    """A private reply to the member who acted (with the reward, when something was graded).

    `counted` is False when nothing was answered, so the step's counter needs no update.
    """

    text: str
    run_id: int
    step_id: str
    reward: int | None = None
    tries_left: int | None = None
    until_reveal: str = ""
    counted: bool = True
    redraw: ReasonCard | None = None
    """What the clicked message becomes (a reason a host hid), for the platform to redraw."""

    def full_text(self, reveal_waits: bool = True) -> str:
        """The reply; `until_reveal` (what waits for the reveal) only where a reveal is to come."""
        if reveal_waits and self.until_reveal:
            return f"{self.text} {self.until_reveal}"
        return self.text


@dataclass(frozen=True)
class SummaryCard:
    """The run's results: participation, and a line per question with its correct share.

    `reveals` holds each question's results when the channel never saw them one by one (a
    closed assignment): shown after the summary, in a thread under it or privately.
    """

    run_id: int
    title: str
    lines: tuple[str, ...]
    members: int
    bars: tuple[Bar, ...] = ()
    finished: bool = False
    chart: Chart | None = None
    reveals: tuple[RevealCard, ...] = ()


@dataclass(frozen=True)
class Advance:
    """The result of moving on: the next step's card, or the summary when the lesson ends.

    `closed_card` is the step left behind drawn closed, when its message still needs closing
    (a question revealed earlier was closed at its reveal); `reveal` is set when moving on
    revealed an open question; `left` is the left question's reveal redrawn with its Next
    disabled, for the message that shows it. A question that holds a second vote is
    discussed instead of left: `discussion`, with no card.
    """

    card: StepCard | None
    summary: SummaryCard | None = None
    closed_card: StepCard | None = None
    reveal: RevealCard | None = None
    left: RevealCard | None = None
    discussion: Discussion | None = None
    """Set instead of a move when the question left open holds a second vote first."""


CUT_MARK = "…"


def clip(text: str, limit: int) -> str:
    """The text, cut with an ellipsis if it is longer than `limit` characters (a field's)."""
    return text if len(text) <= limit else text[: max(0, limit - len(CUT_MARK))] + CUT_MARK
