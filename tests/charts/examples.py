"""An example channel's tally of the RLVR lesson, turned into each kind of chart.

Twelve members answered; the counts below are an example, not a real channel. The chart data
comes from the engine's own builders, and the verifier's rewards from the real checker.
"""

from __future__ import annotations

import asyncio

from bot.engine.steps.before_after import before_after_chart
from bot.engine.steps.free_answer import free_answer_bars, free_answer_chart
from bot.engine.steps.mechanism import train_on_run
from bot.engine.steps.peer_round import AGAIN_KIND, PeerMoves, both_answers_chart, split_chart
from bot.engine.steps.prediction import CHOICE_KIND, choice_bars, share_chart
from bot.engine.steps.ratings import verifier_chart
from bot.engine.steps.verifier import verifier_rows
from bot.engine.summary import right_answers_chart
from bot.mechanism.chart import training_chart
from bot.mechanism.training import TrainingRuns
from bot.model.records import (
    ChoicePair,
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
from lessons.schema import FreeAnswerStep, PeerRoundStep, PredictionStep, VerifierStep

MEMBERS = 12
PREDICTION_VOTES = (3, 5, 2, 2)
RECALL_VOTES = (1, 9, 1, 1)
THUMBS = ((9, 3), (7, 5), (4, 8), (5, 7))
FREE_ANSWERS = FreeAnswerStats(members=11, attempts=19, solved=9, first_try_solved=5)
PEER_MOVES = ((0, 0, 5), (1, 0, 1), (1, 1, 2), (2, 0, 1), (2, 2, 1), (3, 0, 1), (3, 3, 1))
"""The peer round's (first choice, second choice, members) by choice position: 5 right, then 8."""


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
    peer = next(step for step in lesson.steps if isinstance(step, PeerRoundStep))
    peer_votes, peer_pairs = _peer_tally(peer)
    summary_bars = [_summary_bar(step, predictions, peer_pairs) for step in lesson.steps
                    if isinstance(step, PredictionStep | FreeAnswerStep | PeerRoundStep)]
    summary = right_answers_chart(summary_bars, MEMBERS)
    assert summary is not None
    recall = next(step for step in predictions if step.recall == prediction.id)
    again_bars = choice_bars(recall, _votes(recall, RECALL_VOTES))
    peer_first = choice_bars(peer, peer_votes, CHOICE_KIND)
    peer_again = choice_bars(peer, peer_votes, AGAIN_KIND)
    peer_split = choice_bars(peer, peer_votes, CHOICE_KIND, marked=False)
    return {
        "prediction-reveal": share_chart(prediction.title, prediction_bars),
        "recall-reveal": before_after_chart(recall.title, prediction_bars, again_bars),
        "peer-round-split": split_chart(peer.title, peer_split),
        "peer-round-reveal": both_answers_chart(peer.title, peer_first, peer_again),
        "verifier-reveal": verifier_chart(verifier.title, rows, MEMBERS),
        "free-answer-reveal": free_answer_chart(free_answer.title, free_bars),
        "run-summary": summary,
        "mechanism": training_chart(asyncio.run(_runs(verifier))),
    }


def _summary_bar(
    step: PredictionStep | FreeAnswerStep | PeerRoundStep,
    predictions: list[PredictionStep],
    peer_pairs: list[ChoicePair],
) -> Bar:
    if isinstance(step, PeerRoundStep):
        return PeerMoves.of(peer_pairs, step.correct_choice.id).bar(step.title)
    if isinstance(step, FreeAnswerStep):
        return _right(step.title, free_answer_bars(FREE_ANSWERS))
    return _right(step.title, choice_bars(step, _prediction_votes(step, predictions.index(step))))


def _peer_tally(step: PeerRoundStep) -> tuple[list[VoteCount], list[ChoicePair]]:
    """The peer round's first and second answers, and each member's pair of them."""
    ids = [choice.id for choice in step.choices]
    pairs = [ChoicePair(ids[first], ids[second], n) for first, second, n in PEER_MOVES]
    votes = [
        VoteCount(kind, choice, sum(p.count for p in pairs if getattr(p, side) == choice))
        for kind, side in ((CHOICE_KIND, "first"), (AGAIN_KIND, "second"))
        for choice in ids
    ]
    return votes, pairs


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
