"""Terminal entry point: train the three toy runs on typed thumbs-up counts and print the report.

The attempts are the lesson's own (its mechanism step's source); the checker's reward for each
comes from running the real checker on the attempt's text.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.mechanism.attempts import COMMAND_LINE_VOTES, Exercise, toy_attempts
from bot.mechanism.chart import training_chart_png
from bot.mechanism.report import report_lines
from bot.mechanism.training import DEFAULT_STEPS, TrainingRuns, TrainingSettings, train_all
from bot.mechanism.votes import VotesError, parse_votes
from bot.model.views import VerifierRow
from bot.verifier.checker import Checker
from bot.verifier.errors import CheckerError
from bot.verifier.verdict import Verdict
from lessons.loader import LessonError, load_lesson

BAD_INPUT = 2
MAX_STEPS = 10_000
DEFAULT_LESSON = "rlvr"


@dataclass(frozen=True)
class MechanismOptions:
    """What the command was asked for, beyond the votes."""

    seed: int = 0
    steps: int = DEFAULT_STEPS
    raters: int | None = None
    lesson_id: str = DEFAULT_LESSON
    chart_path: str | None = None


def mechanism_command(
    votes: str, options: MechanismOptions | None = None, show: Callable[[str], None] = print
) -> int:
    """Show the three runs trained on typed thumbs-up counts; return 0, or 2 on bad input.

    `show` prints the report's text, whose light Markdown a terminal front end may draw.
    """
    options = options or MechanismOptions()
    try:
        step = _check_options(options)
        counts = parse_votes(votes, step.sample_attempts())
        raters = _raters(counts, options.raters)
    except (VotesError, LessonError) as error:
        return _fail(str(error))
    try:
        verdicts = asyncio.run(_verdicts(step))
    except CheckerError as error:
        return _fail(f"the checker could not run: {error}")
    rows = _rows(step, counts, raters, verdicts)
    settings = TrainingSettings(steps=options.steps, seed=options.seed)
    runs = train_all(toy_attempts(step, rows, COMMAND_LINE_VOTES), settings)
    show("\n".join(report_lines(runs, [_raters_assumption(raters, options.raters)])))
    return _write_chart(runs, options.chart_path) if options.chart_path else 0


def source_step(lesson_id: str) -> Exercise:
    """The verifier step whose attempts the lesson's mechanism step trains on."""
    source = load_lesson(lesson_id).mechanism_source()
    if source is None:
        raise LessonError(lesson_id, ["the lesson has no mechanism step"])
    return source


def _check_options(options: MechanismOptions) -> Exercise:
    if not 1 <= options.steps <= MAX_STEPS:
        raise VotesError(f"steps must be between 1 and {MAX_STEPS}, got {options.steps}")
    if options.chart_path and not Path(options.chart_path).parent.is_dir():
        raise VotesError(f"cannot write the chart to {options.chart_path}: no such directory")
    return source_step(options.lesson_id)


def _raters(counts: Mapping[str, int], raters: int | None) -> int:
    least = max(*counts.values(), 1)
    if raters is None:
        return least
    if raters < least:
        raise VotesError(
            f"--raters must be at least {least} (one attempt's thumbs-ups), got {raters}"
        )
    return raters


def _raters_assumption(raters: int, given: int | None) -> str:
    source = "--raters" if given is not None else "the highest count; set --raters"
    return f"{raters} raters each rated every attempt ({source})"


async def _verdicts(step: Exercise) -> dict[str, Verdict]:
    gold = step.gold_answer()
    async with Checker(workers=1) as checker:
        return {
            a.id: await checker.check_attempt(a.text, gold.text, unit=gold.unit, accept=gold.accept)
            for a in step.sample_attempts()
        }


def _rows(
    step: Exercise, ups: Mapping[str, int], raters: int, verdicts: Mapping[str, Verdict]
) -> tuple[VerifierRow, ...]:
    return tuple(
        VerifierRow(
            label=a.label,
            style=a.style,
            thumbs_up=ups[a.id],
            thumbs_down=raters - ups[a.id],
            read=verdicts[a.id].read,
            reward=verdicts[a.id].reward,
            reason=verdicts[a.id].reason,
        )
        for a in step.sample_attempts()
    )


def _write_chart(runs: TrainingRuns, chart_path: str) -> int:
    try:
        Path(chart_path).write_bytes(training_chart_png(runs))
    except OSError as error:
        return _fail(f"cannot write the chart to {chart_path}: {error.strerror or error}")
    print(f"Chart written to {chart_path}")
    return 0


def _fail(message: str) -> int:
    print(f"mechanism: {message}", file=sys.stderr)
    return BAD_INPUT
