"""Turning counts into bars, text bars and charts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, _
from bot.i18n import percent as language_percent
from bot.model.views import Bar, Chart, Series, VerifierRow

BAR_WIDTH = 20
ROW_BAR_WIDTH = 10
RIGHT_MARK = "✓"
RIGHT_ANSWER = N_("the right answer")


def make_bars(labelled_counts: Sequence[tuple[str, int, bool]]) -> tuple[Bar, ...]:
    """Bars with shares of the total from (label, count, marked) triples."""
    total = sum(count for _, count, _ in labelled_counts)
    return tuple(
        Bar(label=label, count=count, share=count / total if total else 0.0, marked=marked)
        for label, count, marked in labelled_counts
    )


def text_bar(share: float, width: int = BAR_WIDTH) -> str:
    """A bar of block characters for a share between 0 and 1."""
    filled = round(max(0.0, min(1.0, share)) * width)
    return "█" * filled + "░" * (width - filled)


def percent(share: float) -> str:
    """A share as a whole percentage in the current language, e.g. '67%' ('67 %')."""
    return language_percent(round(share * 100) / 100)


def right_line(title: str, right: Bar, total: int) -> str:
    """A question's summary line: how many of those who answered were right, and the share."""
    return _(
        "**{title}**: {right} of {total} right ({share})",
        title=title,
        right=right.count,
        total=total,
        share=percent(right.share),
    )


def bar_lines(bars: Sequence[Bar], mark: str = "✅") -> list[str]:
    """One text line per bar: bar, count, percentage, label and its mark.

    A marked bar shows its own mark, or else `mark`, the platform's right-answer mark.
    """
    return [
        f"`{text_bar(bar.share)}` {bar.count} ({percent(bar.share)}) {bar.label}"
        + (f" {bar.mark or mark}" if bar.marked and (bar.mark or mark) else "")
        for bar in bars
    ]


def thumbs_tally(row: VerifierRow) -> str:
    """The raters' thumbs on one sample attempt: '`█████░░░░░` 50% 👍 (2 👍 · 2 👎)'."""
    bar = text_bar(row.up_share, ROW_BAR_WIDTH)
    return f"`{bar}` {percent(row.up_share)} 👍 ({row.thumbs_up} 👍 · {row.thumbs_down} 👎)"


def checker_reading(row: VerifierRow) -> str:
    """The checker on one sample attempt: 'checker read **20** → reward **1** ✅'."""
    mark = "✅" if row.reward else "❌"
    return _(
        "checker read **{read}** → reward **{reward}** {mark}",
        read=row.read or _("(nothing)"),
        reward=row.reward,
        mark=mark,
    )


def verifier_lines(rows: Sequence[VerifierRow]) -> list[str]:
    """Each sample attempt: its label, then the raters' thumbs beside the checker's reading."""
    lines: list[str] = []
    for row in rows:
        lines += [f"**{row.label}**", f"{thumbs_tally(row)} │ {checker_reading(row)}"]
    return lines


def channel_share_label() -> str:
    """The value axis of a chart of the channel's shares: '% of this channel'."""
    return _("{percent_sign} of this channel", percent_sign="%")


def tally_chart(
    title: str, bars: Sequence[Bar], marks: tuple[str, ...], legend: tuple[tuple[str, str], ...]
) -> Chart:
    """One bar per tally bar: its percentage of the channel, its count at the end, its mark."""
    return Chart(
        title,
        tuple(bar.label for bar in bars),
        (tally_series(_("this channel"), bars),),
        value_label=channel_share_label(),
        marks=marks,
        legend=legend,
    )


def tally_series(name: str, bars: Sequence[Bar]) -> Series:
    """The bars' percentages of their total, with 'count of total (share)' at each end."""
    total = sum(bar.count for bar in bars)
    return Series(
        name,
        tuple(100 * bar.share for bar in bars),
        ends=tuple(count_of(bar.count, total) for bar in bars),
    )


def count_of(count: int, total: int) -> str:
    """'count of total (share)', as a chart writes at the end of a bar."""
    share = count / total if total else 0.0
    return _("{count} of {total} ({share})", count=count, total=total, share=percent(share))
