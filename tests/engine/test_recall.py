"""A recall step: the same question asked again, and how the channel's answers moved."""

from __future__ import annotations

import csv
import io

from bot.engine import LessonEngine
from bot.engine.steps.before_after import recall_notes
from bot.model import Member, RevealCard, StepCard
from bot.model.records import ChoicePair
from lessons.schema import PredictionStep
from tests.engine.helpers import ALICE, BOB, CAROL, CHANNEL, HOST

DAVE = Member("dave", "Dave")
ERIN = Member("erin", "Erin")
FRANK = Member("frank", "Frank")
RIGHT, WRONG, OTHER = "checkable-reward", "bigger-model", "more-text"
BEFORE = {ALICE: WRONG, BOB: RIGHT, CAROL: RIGHT, DAVE: WRONG, ERIN: WRONG}
AFTER = {ALICE: RIGHT, BOB: RIGHT, CAROL: OTHER, DAVE: OTHER, FRANK: RIGHT}


async def advance_to(engine: LessonEngine, card: StepCard, step_id: str) -> StepCard:
    """Move the run on (revealing on the way) until `step_id` is open."""
    while card.step_id != step_id:
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None, f"the lesson has no step {step_id}"
        card = advance.card
    return card


async def answer_all(engine: LessonEngine, card: StepCard, choices: dict[Member, str]) -> None:
    """Each member clicks their choice at the open step."""
    for member, choice in choices.items():
        await engine.choose(card.run_id, card.step_id, member, choice)


async def recall_revealed(engine: LessonEngine) -> RevealCard:
    """A run where five members answered before and five after (four of them both times)."""
    card = await advance_to(engine, await engine.start(CHANNEL, HOST), "what-changed")
    await answer_all(engine, card, BEFORE)
    card = await advance_to(engine, card, "what-changed-again")
    await answer_all(engine, card, AFTER)
    _, reveal = await engine.reveal(card.run_id, HOST)
    return reveal


def test_the_lesson_asks_what_changed_again_before_its_takeaway(engine: LessonEngine) -> None:
    lesson = engine.catalog.get()
    recall = lesson.steps[-2]
    first = lesson.step_by_id("what-changed")
    assert isinstance(recall, PredictionStep) and isinstance(first, PredictionStep)
    assert recall.recall == "what-changed"
    assert recall.choices == first.choices
    assert lesson.steps[-1].kind.value == "takeaway"


async def test_the_reveal_counts_who_moved_held_and_left(engine: LessonEngine) -> None:
    reveal = await recall_revealed(engine)
    assert (
        "Before → after, among the 4 members who answered both times: "
        "1 moved to the right answer, 1 held it, 1 left it, 1 stayed wrong."
    ) in reveal.notes
    assert (
        "1 answered only the first time and 1 only this time; they are not counted above."
    ) in reveal.notes
    assert [bar.count for bar in reveal.bars] == [0, 3, 2, 0]


async def test_the_chart_sets_the_first_time_beside_the_second(engine: LessonEngine) -> None:
    reveal = await recall_revealed(engine)
    assert reveal.chart is not None
    assert [series.name for series in reveal.chart.series] == ["first time", "asked again"]
    first, again = (series.values for series in reveal.chart.series)
    assert first == (60.0, 40.0, 0.0, 0.0) and again == (0.0, 60.0, 40.0, 0.0)
    ends = ("0 of 5 (0%)", "3 of 5 (60%)", "2 of 5 (40%)", "0 of 5 (0%)")
    assert reveal.chart.series[1].ends == ends
    assert reveal.chart.labels[1] == "A new training stage that rewards answers a program can check"
    assert reveal.chart.marks == ("", "✓", "", "") and "the right answer" in reveal.chart.caption


async def test_the_results_say_before_and_after(engine: LessonEngine) -> None:
    reveal = await recall_revealed(engine)
    run = await engine.store.get_run(reveal.run_id)
    assert run is not None
    summary = await engine.views.summary(run)
    assert (
        "Before → after: 1 moved to the right answer, 1 held it, 1 left it, 1 stayed wrong"
        in summary.lines
    )


async def test_the_before_and_after_stays_as_revealed(engine: LessonEngine) -> None:
    reveal = await recall_revealed(engine)
    await engine.forget_member(CHANNEL, ALICE)
    await engine.forget_member(CHANNEL, BOB)
    run = await engine.store.get_run(reveal.run_id)
    assert run is not None
    step = engine.catalog.get().step_by_id("what-changed-again")
    again = await engine.views.reveal_card(run, step)
    assert again.notes == reveal.notes


async def test_nobody_answering_both_times_is_said_plainly(engine: LessonEngine) -> None:
    card = await advance_to(engine, await engine.start(CHANNEL, HOST), "what-changed")
    await answer_all(engine, card, {ALICE: RIGHT})
    card = await advance_to(engine, card, "what-changed-again")
    await answer_all(engine, card, {BOB: RIGHT})
    _, reveal = await engine.reveal(card.run_id, HOST)
    assert reveal.notes[-2:] == (
        "Nobody answered both times, so there is no before and after to show yet.",
        "1 answered only the first time and 1 only this time; they are not counted above.",
    )


async def test_the_export_marks_the_recall_steps_rows(engine: LessonEngine) -> None:
    reveal = await recall_revealed(engine)
    text = await engine.export_run(reveal.run_id, HOST, CHANNEL)
    rows = list(csv.DictReader(io.StringIO(text)))
    recalled = {(r["user_id"], r["value"]) for r in rows if r["recalls"] == "what-changed"}
    assert recalled == {(member.user_id, choice) for member, choice in AFTER.items()}
    assert all(r["step"] == "what-changed-again" for r in rows if r["recalls"])
    assert {r["recalls"] for r in rows if r["step"] == "what-changed"} == {""}


def test_a_recalled_opinion_poll_counts_who_changed_and_who_kept() -> None:
    poll = PredictionStep.model_validate(
        {
            "id": "poll-again",
            "kind": "prediction",
            "title": "Again",
            "body": "Again.",
            "explanation": "Opinions.",
            "recall": "poll",
            "choices": [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}],
        }
    )
    pairs = [ChoicePair("yes", "no", 2), ChoicePair("no", "no", 3), ChoicePair(None, "yes", 1)]
    assert recall_notes(poll, pairs) == (
        "Before → after, among the 5 members who answered both times: "
        "2 changed their answer, 3 kept it.",
        "0 answered only the first time and 1 only this time; they are not counted above.",
    )
