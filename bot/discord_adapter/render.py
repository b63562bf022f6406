"""Drawing the engine's cards as Discord messages within Discord's limits.

A message is a text line, embeds, buttons and a chart.

Lesson buttons carry their engine address as custom_id. The bot routes their clicks itself
(`LessonBot.on_interaction`), so discord.py keeps no view per posted message and rebuilds
none from the message on each click, which under a burst of clicks is most of what parsing
one costs.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.engine import AssignmentCard, OwnStep, bar_lines, verifier_lines
from bot.i18n import N_, _, ngettext
from bot.model import (
    DISCORD_DESCRIPTION_LIMIT,
    Button,
    ReasonCard,
    RevealCard,
    StepCard,
    SummaryCard,
    Tone,
    clip,
    render_written,
)
from bot.service import Card, DrawnChart, FileReply, card_lines, card_title

MAX_CONTENT = 2000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_BUTTON_LABEL = 80
MAX_ATTACHMENT_DESCRIPTION = DISCORD_DESCRIPTION_LIMIT

CHART_FILENAME = "chart.png"
OWN_STEP = N_("**Step {number} of {total}** · your own pace, only you see this")
NO_MENTIONS = discord.AllowedMentions.none()
COLOURS = {
    "narration": 0x5865F2,
    "prediction": 0xFEE75C,
    "verifier": 0xEB459E,
    "free_answer": 0x57F287,
    "takeaway": 0x5865F2,
}
RESULTS_COLOUR = 0x2EB67D
REASON_COLOUR = 0x99AAB5
DEFAULT_UPLOAD_LIMIT = 8 * 1024 * 1024
TOO_LARGE = N_(
    "Run {run_id}'s answers are too large to attach here ({size} bytes). "
    "On the bot's machine: `python -m bot export --run {run_id}`."
)
STYLES = {
    Tone.PRIMARY: discord.ButtonStyle.primary,
    Tone.SECONDARY: discord.ButtonStyle.secondary,
    Tone.SUCCESS: discord.ButtonStyle.success,
    Tone.DANGER: discord.ButtonStyle.danger,
}


@dataclass
class Outgoing:
    """Everything one Discord message shows; `attachments` are (filename, bytes) pairs.

    `then` holds the messages that follow it privately (each question's results).
    """

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    chart: DrawnChart | None = None
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    then: list[Outgoing] = field(default_factory=list)

    def files(self) -> list[discord.File]:
        """The chart, described for screen readers, and any other attachments, as files."""
        files = [discord.File(io.BytesIO(data), filename=name) for name, data in self.attachments]
        if self.chart is not None:
            files.insert(0, chart_file(self.chart))
        return files

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `send` (channel or interaction), mentions always off."""
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": NO_MENTIONS}
        if self.embeds:
            kwargs["embeds"] = self.embeds
        if self.view is not None:
            kwargs["view"] = self.view
        files = self.files()
        if files:
            kwargs["files"] = files
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments that redraw a whole message: whatever is not given goes."""
        kwargs = {"content": self.content, "embeds": self.embeds, "view": self.view}
        return kwargs | {"attachments": self.files(), "allowed_mentions": NO_MENTIONS}


def chart_file(chart: DrawnChart) -> discord.File:
    """The chart's PNG as an attachment whose description says what the chart shows."""
    description = clip(chart.description, MAX_ATTACHMENT_DESCRIPTION)
    return discord.File(io.BytesIO(chart.png), filename=CHART_FILENAME, description=description)


class LessonButton(discord.ui.Button[discord.ui.View]):
    """A button on a lesson message, whose clicks the bot routes by custom_id."""

    def is_dispatchable(self) -> bool:
        """Never: discord.py need not store a view to find this button's callback."""
        return False


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


def build_view(buttons: Sequence[Button]) -> discord.ui.View | None:
    """A view holding the buttons in the engine's rows; None when there are none."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(LessonButton(
            style=STYLES[button.tone], label=clip(button.label, MAX_BUTTON_LABEL),
            custom_id=button.address, emoji=button.emoji or None,
            disabled=button.disabled, row=button.row,
        ))
    return view


def card_message(card: Card, chart: DrawnChart | None) -> Outgoing:
    """Any card as a channel message, with its chart attached."""
    if isinstance(card, StepCard):
        return step_message(card, chart)
    if isinstance(card, RevealCard):
        return reveal_message(card, chart)
    if isinstance(card, AssignmentCard):
        return assignment_message(card)
    if isinstance(card, ReasonCard):
        return reason_message(card)
    return summary_message(card, chart)


def reason_message(card: ReasonCard) -> Outgoing:
    """A reason in a discussion thread: whose it is, its text as written, and a host's Hide.

    In an embed, with mentions off: a member's words never ping, format or unfurl.
    """
    shown = embeds([(card.heading, as_written(card.shown_text))], REASON_COLOUR)
    return Outgoing(None, shown, build_view(card.buttons))


def as_written(text: str) -> str:
    """Someone's text shown as typed: markdown escaped, no mention, channel or time read."""
    return discord.utils.escape_markdown(text).replace("<", "\\<")


def section_pairs(card: StepCard) -> list[tuple[str, str]]:
    """A step's (title, text) pairs: its body, then its sections, someone's text as written."""
    parts = [(s.heading, as_written(s.text) if s.plain else s.text) for s in card.sections]
    return [(card.title, card.body), *parts]


def assignment_message(card: AssignmentCard) -> Outgoing:
    """An assignment's card: what it is, when it is due, its counts and Start."""
    text = "\n".join(card_lines(card, discord_time))
    shown = embeds([(card_title(card), text)], RESULTS_COLOUR, False)
    return Outgoing(assignment_content(card), shown, build_view(card.buttons))


def discord_time(moment: datetime) -> str:
    """A time each reader sees in their own zone, then how far off it is."""
    unix = int(moment.timestamp())
    return f"<t:{unix}:F> (<t:{unix}:R>)"


def private_text(text: str) -> Outgoing:
    """A private reply: the message's text, or if longer (some languages' help), an embed's."""
    if len(text := render_written(text, as_written)) <= MAX_CONTENT:
        return Outgoing(text)
    return Outgoing(embeds=[discord.Embed(description=clip(text, MAX_EMBED_DESCRIPTION))])


def assignment_content(card: AssignmentCard) -> str:
    """The line above an assignment card: the run and its counts."""
    line = _("**Assignment** · run {run_id} · {counts}", run_id=card.run_id,
             counts=card.counter_text)
    return clip(line, MAX_CONTENT)


def own_step_message(own: OwnStep, chart: DrawnChart | None) -> Outgoing:
    """A member's own step, shown to them alone, or the end of their pass.

    What their answer came to, the step, its tally so far once answered (with its chart,
    unless the step has its own), and the buttons they need.
    """
    card = own.card
    if card is None:
        return Outgoing(clip(own.text, MAX_CONTENT))
    sections = section_pairs(card)
    if own.so_far is not None:
        sections.append((own.so_far.title, "\n".join(reveal_lines(own.so_far))))
    colour = COLOURS.get(card.kind, RESULTS_COLOUR)
    where = _(OWN_STEP, number=card.number, total=card.total)
    content = f"{where}\n\n{own.text}" if own.text else where
    shown = embeds(sections, colour, chart is not None and card.chart is not None)
    if chart is not None and card.chart is None and shown:
        shown[-1].set_image(url=f"attachment://{CHART_FILENAME}")
    return Outgoing(clip(content, MAX_CONTENT), shown, build_view(card.buttons), chart)


def step_content(card: StepCard) -> str:
    """The line above a step: its number, the run and the live counter."""
    parts = [
        _("**{unit} {number} of {total}**", unit=card.unit, number=card.number, total=card.total),
        _("run {run_id}", run_id=card.run_id),
    ]
    if card.takes_answers or card.superseded:
        parts.append(card.counter_text)
    if card.closed and card.takes_answers and not card.superseded:
        parts.append(_("answers closed"))
    return clip(" · ".join(parts), MAX_CONTENT)


def step_message(card: StepCard, chart: DrawnChart | None = None) -> Outgoing:
    """A step: body and sections (problem, attempts, tables) as embeds, buttons, a chart."""
    sections = section_pairs(card)
    result = embeds(sections, COLOURS.get(card.kind, RESULTS_COLOUR), chart is not None)
    return Outgoing(step_content(card), result, build_view(card.buttons), chart)


def reveal_message(card: RevealCard, chart: DrawnChart | None) -> Outgoing:
    """A reveal: text bars or raters beside the checker, notes, the explanation, a chart."""
    sections = [(card.title, "\n".join(reveal_lines(card)))]
    if card.explanation.strip():
        sections.append((_("Why"), card.explanation))
    shown = embeds(sections, RESULTS_COLOUR, chart is not None)
    return Outgoing(None, shown, build_view(card.buttons), chart)


def summary_message(card: SummaryCard, chart: DrawnChart | None) -> Outgoing:
    """A run's results: participation, per-question lines and a chart."""
    shown = embeds([(card.title, "\n".join(card.lines))], RESULTS_COLOUR, chart is not None)
    return Outgoing(None, shown, None, chart)


def reveal_lines(card: RevealCard) -> list[str]:
    """The body of a reveal: answered count, bars, verifier rows and notes."""
    lines = [ngettext("**{count} answered**", "**{count} answered**", card.answered), ""]
    lines += bar_lines(card.bars)
    lines += verifier_lines(card.rows)
    if card.notes:
        lines += ["", *card.notes]
    return lines


def embeds(
    sections: Sequence[tuple[str, str]], colour: int, with_chart: bool = False
) -> list[discord.Embed]:
    """One embed per (title, text), clipped to Discord's limits; the first shows the chart."""
    result = [
        discord.Embed(title=title, description=text, colour=colour)
        for title, text in fit_sections(sections)
    ]
    if with_chart and result:
        result[0].set_image(url=f"attachment://{CHART_FILENAME}")
    return result


def file_message(reply: FileReply, size_limit: int | None) -> str | Outgoing:
    """A private reply with its file attached, or why the file cannot be attached here."""
    if len(reply.data) > (size_limit or DEFAULT_UPLOAD_LIMIT):
        run_id = reply.filename.removeprefix("run-").removesuffix(".csv")
        return _(TOO_LARGE, run_id=run_id, size=len(reply.data))
    return Outgoing(reply.text, attachments=[(reply.filename, reply.data)])
