"""The channel's before and after: how answers moved between a question and its recall."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.engine.tally import RIGHT_ANSWER, RIGHT_MARK, channel_share_label, tally_series
from bot.i18n import N_, _, ngettext
from bot.model.records import ChoicePair
from bot.model.views import Bar, Chart
from lessons.schema import Choice

BEFORE_AFTER = N_("Before → after")


class RightAnswered(Protocol):
    """A question that may have a right choice: a prediction (not a poll) or a peer round."""

    @property
    def correct_choice(self) -> Choice | None:
        """The right answer, or None for an opinion poll."""
        ...


@dataclass(frozen=True)
class BeforeAfter:
    """Members counted by how their answer moved; only those who answered both times move."""

    moved: int
    held: int
    left: int
    stayed_wrong: int
    changed: int
    both: int
    first_only: int
    second_only: int


def before_after(pairs: Sequence[ChoicePair], right: str | None) -> BeforeAfter:
    """Count who moved to the right answer, held it, left it, and who answered only once."""
    both = [pair for pair in pairs if pair.first is not None and pair.second is not None]
    return BeforeAfter(
        moved=_count(both, lambda pair: pair.first != right and pair.second == right),
        held=_count(both, lambda pair: pair.first == right and pair.second == right),
        left=_count(both, lambda pair: pair.first == right and pair.second != right),
        stayed_wrong=_count(both, lambda pair: right not in (pair.first, pair.second)),
        changed=_count(both, lambda pair: pair.first != pair.second),
        both=_count(both, lambda pair: True),
        first_only=_count(pairs, lambda pair: pair.second is None),
        second_only=_count(pairs, lambda pair: pair.first is None),
    )


def moves_text(moves: BeforeAfter, has_right: bool) -> str:
    """'3 moved to the right answer, 2 held it, 1 left it, 4 stayed wrong' (a poll: changed, kept).

    The groups named always add up to all who answered both times.
    """
    if has_right:
        return _(
            "{moved} moved to the right answer, {held} held it, {left} left it, "
            "{wrong} stayed wrong",
            moved=moves.moved,
            held=moves.held,
            left=moves.left,
            wrong=moves.stayed_wrong,
        )
    return _(
        "{changed} changed their answer, {kept} kept it",
        changed=moves.changed,
        kept=moves.both - moves.changed,
    )


def recall_notes(step: RightAnswered, pairs: Sequence[ChoicePair]) -> tuple[str, ...]:
    """The reveal's lines on how the channel's answers moved since the recalled question."""
    right = step.correct_choice.id if step.correct_choice else None
    moves = before_after(pairs, right)
    if moves.both == 0:
        lines = [_("Nobody answered both times, so there is no before and after to show yet.")]
    else:
        lines = [
            ngettext(
                "{before_after}, among the {count} member who answered both times: {moves}.",
                "{before_after}, among the {count} members who answered both times: {moves}.",
                moves.both,
                before_after=_(BEFORE_AFTER),
                moves=moves_text(moves, right is not None),
            )
        ]
    if moves.first_only or moves.second_only:
        lines.append(
            _(
                "{first_only} answered only the first time and "
                "{second_only} only this time; they are not counted above.",
                first_only=moves.first_only,
                second_only=moves.second_only,
            )
        )
    return tuple(lines)


def own_move_text(step: RightAnswered, first: str | None, second: str | None) -> str:
    """One member's own move between a question and its recall, as a sentence to them."""
    right = step.correct_choice.id if step.correct_choice else None
    if first is None or second is None:
        return _("You answered only this time, so you have no before and after.")
    if right is None:
        return _("You changed your answer.") if first != second else _("You kept your answer.")
    if first != right:
        if second == right:
            return _("You moved to the right answer.")
        return _("You are not there yet.")
    return _("You held the right answer.") if second == right else _("You left the right answer.")


def recall_summary_line(step: RightAnswered, pairs: Sequence[ChoicePair]) -> str:
    """The results line: 'Before → after: 3 moved to the right answer, 2 held it, …'."""
    right = step.correct_choice.id if step.correct_choice else None
    moves = moves_text(before_after(pairs, right), right is not None)
    return f"{_(BEFORE_AFTER)}: {moves}"


def before_after_chart(title: str, first: Sequence[Bar], again: Sequence[Bar]) -> Chart:
    """Each choice's percentage the first time beside its percentage when asked again."""
    marks = tuple(RIGHT_MARK if bar.marked else "" for bar in again)
    return Chart(
        _("{title}: this channel's answers, the first time and asked again", title=title),
        tuple(bar.label for bar in again),
        (tally_series(_("first time"), first), tally_series(_("asked again"), again)),
        value_label=channel_share_label(),
        marks=marks,
        legend=((RIGHT_MARK, _(RIGHT_ANSWER)),) if any(marks) else (),
    )


def _count(pairs: Sequence[ChoicePair], wanted: Callable[[ChoicePair], bool]) -> int:
    return sum(pair.count for pair in pairs if wanted(pair))
