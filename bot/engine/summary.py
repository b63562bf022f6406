"""A run's results: only what has been revealed, never a question still open."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.cards import takes_answers
from bot.engine.recall import recall_summary_line
from bot.engine.reveals import choice_bars
from bot.engine.tally import percent
from bot.model.records import Phase, RunRecord, RunState
from bot.model.views import Bar, Chart, Series, SummaryCard, VerifierRow
from lessons.schema import FreeAnswerStep, Lesson, PredictionStep, Step, VerifierStep

if TYPE_CHECKING:
    from bot.engine.run_views import RunViews

STATE_WORDS = {
    RunState.ACTIVE: "in progress",
    RunState.FINISHED: "finished",
    RunState.STOPPED: "stopped early",
}


def revealed_steps(lesson: Lesson, run: RunRecord) -> list[Step]:
    """The answerable steps whose results the channel has already seen."""
    done = len(lesson.steps) if run.state is RunState.FINISHED else run.step_index
    if run.state is not RunState.FINISHED and run.position.phase is Phase.REVEALED:
        done += 1
    return [step for step in lesson.steps[:done] if takes_answers(step)]


async def build_summary(views: RunViews, run: RunRecord) -> SummaryCard:
    """Participation, per-question correct share, and raters beside the checker."""
    lesson = views.core.lesson_of(run)
    members = await views.tallies.run_members(run.id)
    position = f"step {run.step_index + 1} of {len(lesson.steps)}"
    lines = [
        f"{lesson.title}: {STATE_WORDS[run.state]}, {position}.",
        f"{members} members took part.",
    ]
    bars: list[Bar] = []
    rows: tuple[VerifierRow, ...] = ()
    for step in revealed_steps(lesson, run):
        line, bar, step_rows = await _step_result(views, run, step)
        lines += [line, *await _before_after_lines(views, run, step)]
        bars.extend([bar] if bar else [])
        rows = step_rows or rows
    finished = run.state is RunState.FINISHED
    return SummaryCard(
        run.id,
        f"Results: {lesson.title}",
        tuple(lines),
        members,
        tuple(bars),
        rows,
        finished,
        right_answers_chart(bars, members),
    )


def right_answers_chart(bars: Sequence[Bar], members: int) -> Chart | None:
    """Per revealed question, the percentage of those who answered it who got it right."""
    if not bars:
        return None
    return Chart(
        f"Right answers per question: this channel ({members} took part)",
        tuple(bar.label for bar in bars),
        (Series(
            "right",
            tuple(100 * bar.share for bar in bars),
            ends=tuple(f"{bar.count} right ({percent(bar.share)})" for bar in bars),
        ),),
        value_label="% of those who answered that got it right",
    )


async def _step_result(
    views: RunViews, run: RunRecord, step: Step
) -> tuple[str, Bar | None, tuple[VerifierRow, ...]]:
    if isinstance(step, PredictionStep):
        return await _prediction_result(views, run, step)
    if isinstance(step, VerifierStep):
        rows = await views.verifier_table(run, step)
        parts = [f"{row.label} {percent(row.up_share)} 👍 / reward {row.reward}" for row in rows]
        return f"**{step.title}**: " + "; ".join(parts), None, rows
    assert isinstance(step, FreeAnswerStep)
    stats = (await views.tallies.step_tally(run, step)).free
    assert stats is not None
    share = stats.solved / stats.members if stats.members else 0.0
    line = f"**{step.title}**: {stats.solved} of {stats.members} solved ({percent(share)})"
    return line, Bar(step.title, stats.solved, share, True), ()


async def _before_after_lines(views: RunViews, run: RunRecord, step: Step) -> tuple[str, ...]:
    if not isinstance(step, PredictionStep) or not step.recall:
        return ()
    pairs = (await views.tallies.step_tally(run, step)).pairs
    return (recall_summary_line(step, pairs),)


async def _prediction_result(
    views: RunViews, run: RunRecord, step: PredictionStep
) -> tuple[str, Bar | None, tuple[VerifierRow, ...]]:
    bars = choice_bars(step, (await views.tallies.step_tally(run, step)).votes)
    total = sum(bar.count for bar in bars)
    right = next((bar for bar in bars if bar.marked), None)
    if right is None:
        top = max(bars, key=lambda bar: bar.count)
        return f"**{step.title}**: most chose {top.label} ({percent(top.share)})", None, ()
    line = f"**{step.title}**: {right.count} of {total} right ({percent(right.share)})"
    return line, Bar(step.title, right.count, right.share, True), ()
