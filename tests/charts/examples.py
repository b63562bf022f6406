"""An example channel's tally of the RLVR lesson, turned into each kind of chart.

Twelve members answered; the counts below are an example, not a real channel. The chart data
comes from the engine's own builders, and the verifier's rewards from the real checker.
"""

from __future__ import annotations

import asyncio

from bot.engine.steps.before_after import before_after_chart
from bot.engine.steps.free_answer import free_answer_bars, free_answer_chart
from bot.engine.steps.mechanism import train_on_run
from bot.engine.steps.prediction import choice_bars, share_chart
from bot.engine.steps.ratings import verifier_chart
from bot.engine.steps.verifier import verifier_rows
from bot.engine.summary import right_answers_chart
from bot.mechanism.chart import training_chart
from bot.mechanism.training import TrainingRuns
from bot.model.records import (
    FreeAnswerStats,
    Phase,
    Place,
    Position,
    RunRecord,
    RunState,
    VoteCount,
)
from bot.model.views import AnyChart, Bar
from bot.verifier.grading import grade_attempt
from bot.verifier.verdict import Verdict
from lessons.loader import load_lesson
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep

MEMBERS = 12
PREDICTION_VOTES = (3, 5, 2, 2)
RECALL_VOTES = (1, 9, 1, 1)
THUMBS = ((9, 3), (7, 5), (4, 8), (5, 7))
FREE_ANSWERS = FreeAnswerStats(members=11, attempts=19, solved=9, first_try_solved=5)


def example_charts() -> dict[str, AnyChart]:
    """Each kind of chart the channel sees, by file name, for the example tally."""
    lesson = load_lesson("rlvr")
    predictions = [step for step in lesson.steps if isinstance(step, PredictionStep)]
    prediction = predictions[0]
    verifier = next(step for step in lesson.steps if isinstance(step, VerifierStep))
    prediction_bars = choice_bars(prediction, _prediction_votes(prediction, 0))
    free_bars = free_answer_bars(FREE_ANSWERS)
    rows = verifier_rows(verifier, _thumbs(verifier), _verdicts(verifier))
    free_answer = next(step for step in lesson.steps if isinstance(step, FreeAnswerStep))
    summary_bars = [_right(step.title, _step_bars(step, predictions)) for step in lesson.steps
                    if isinstance(step, PredictionStep | FreeAnswerStep)]
    summary = right_answers_chart(summary_bars, MEMBERS)
    assert summary is not None
    recall = next(step for step in predictions if step.recall == prediction.id)
    again_bars = choice_bars(recall, _votes(recall, RECALL_VOTES))
    return {
        "prediction-reveal": share_chart(prediction.title, prediction_bars),
        "recall-reveal": before_after_chart(recall.title, prediction_bars, again_bars),
        "verifier-reveal": verifier_chart(verifier.title, rows, MEMBERS),
        "free-answer-reveal": free_answer_chart(free_answer.title, free_bars),
        "run-summary": summary,
        "mechanism": training_chart(asyncio.run(_runs(verifier))),
    }


def _step_bars(
    step: PredictionStep | FreeAnswerStep, predictions: list[PredictionStep]
) -> tuple[Bar, ...]:
    if isinstance(step, FreeAnswerStep):
        return free_answer_bars(FREE_ANSWERS)
    return choice_bars(step, _prediction_votes(step, predictions.index(step)))


def _prediction_votes(step: PredictionStep, shift: int) -> list[VoteCount]:
    return _votes(step, PREDICTION_VOTES[shift:] + PREDICTION_VOTES[:shift])


def _votes(step: PredictionStep, votes: tuple[int, ...]) -> list[VoteCount]:
    pairs = zip(step.choices, votes, strict=False)
    return [VoteCount("choice", choice.id, count) for choice, count in pairs]


def _thumbs(step: VerifierStep) -> list[VoteCount]:
    counts: list[VoteCount] = []
    for attempt, (up, down) in zip(step.attempts, THUMBS, strict=False):
        counts += [VoteCount(f"rate:{attempt.id}", "up", up)]
        counts += [VoteCount(f"rate:{attempt.id}", "down", down)]
    return counts


def _verdicts(step: VerifierStep) -> dict[str, Verdict]:
    return {attempt.id: grade_attempt(attempt.text, step.gold) for attempt in step.attempts}


def _right(title: str, bars: tuple[Bar, ...]) -> Bar:
    right = [bar for bar in bars if bar.marked]
    share = sum(bar.share for bar in right)
    return Bar(title, sum(bar.count for bar in right), share, True)


async def _runs(step: VerifierStep) -> TrainingRuns:
    place = Place("example", "workspace", "channel")
    position = Position(0, Phase.OPEN)
    run = RunRecord(1, place, "rlvr", 1, "host", RunState.ACTIVE, position, None, None)
    return await train_on_run(run, step, verifier_rows(step, _thumbs(step), _verdicts(step)))
