"""A run's results: only what has been revealed, never a question still open."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import takes_answers
from bot.engine.steps import RunData, kind_of
from bot.engine.tally import percent
from bot.i18n import N_, _, ngettext
from bot.model.records import Phase, RunRecord, RunState
from bot.model.views import Bar, Chart, Series, SummaryCard
from lessons.schema import Lesson, Step

STATE_WORDS = {
    RunState.ACTIVE: N_("in progress"),
    RunState.FINISHED: N_("finished"),
    RunState.STOPPED: N_("stopped early"),
}
TOOK_PART = N_("took part")


@dataclass(frozen=True)
class Headline:
    """How a run's results begin, worded by its mode: where it stands and who took part."""

    lines: tuple[str, ...]
    """The first lines of the results."""
    members_did: str = TOOK_PART
    """What the members the right-answers chart counts did, as in '13 took part'."""


async def live_headline(run: RunRecord, lesson: Lesson, members: int) -> Headline:
    """A live run's state and the step it reached, then how many members took part."""
    state = _(STATE_WORDS[run.state])
    stands = _(
        "{state}, step {number} of {total}.",
        state=state[:1].upper() + state[1:],
        number=run.step_index + 1,
        total=len(lesson.steps),
    )
    took_part = ngettext("{count} members took part.", "{count} members took part.", members)
    return Headline((stands, took_part))


def revealed_steps(lesson: Lesson, run: RunRecord) -> list[Step]:
    """The answerable steps whose results the channel has already seen."""
    done = len(lesson.steps) if run.state is RunState.FINISHED else run.step_index
    if run.state is not RunState.FINISHED and run.position.phase is Phase.REVEALED:
        done += 1
    return [step for step in lesson.steps[:done] if takes_answers(step)]


async def build_summary(
    data: RunData, run: RunRecord, members: int, headline: Headline
) -> SummaryCard:
    """Participation, and a line per revealed question (raters beside the checker's one)."""
    lesson = data.lesson_of(run)
    lines = list(headline.lines)
    bars: list[Bar] = []
    for step in revealed_steps(lesson, run):
        result = await kind_of(step).result(data, run)
        lines += result.lines
        bars.extend([result.bar] if result.bar else [])
    finished = run.state is RunState.FINISHED
    return SummaryCard(
        run.id,
        _("Results: {lesson}", lesson=lesson.title),
        tuple(lines),
        members,
        tuple(bars),
        finished,
        right_answers_chart(bars, members, headline.members_did),
    )


def right_answers_chart(
    bars: Sequence[Bar], members: int, members_did: str = TOOK_PART
) -> Chart | None:
    """Per revealed question, the percentage of those who answered it who got it right."""
    if not bars:
        return None
    return Chart(
        _(
            "Right answers per question: this channel ({members} {members_did})",
            members=members,
            members_did=_(members_did),
        ),
        tuple(bar.label for bar in bars),
        (Series(
            _("right"),
            tuple(100 * bar.share for bar in bars),
            ends=tuple(
                ngettext(
                    "{count} right ({share})",
                    "{count} right ({share})",
                    bar.count,
                    share=percent(bar.share),
                )
                for bar in bars
            ),
        ),),
        value_label=_(
            "{percent_sign} of those who answered that got it right", percent_sign="%"
        ),
    )
