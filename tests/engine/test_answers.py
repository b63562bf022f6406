"""Members answering: choices, ratings, the checker and typed answers."""

from __future__ import annotations

import pytest

from bot.engine import Action, Address, LessonEngine
from bot.model import BadInput, StepClosed, UnknownChoice, WrongStep
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep
from storage import SqlRunStore
from tests.engine.helpers import ALICE, BOB, CAROL, HOST, start_at


def prediction(engine: LessonEngine, step_id: str) -> PredictionStep:
    step = next(s for s in engine.catalog.get().steps if s.id == step_id)
    assert isinstance(step, PredictionStep)
    return step


async def test_choices_are_counted_once_per_member_and_can_change(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    step = prediction(engine, card.step_id)
    right = step.correct_choice
    assert right is not None
    wrong = next(c for c in step.choices if not c.correct)
    await engine.choose(card.run_id, card.step_id, ALICE, wrong.id)
    receipt = await engine.choose(card.run_id, card.step_id, ALICE, right.id)
    assert "Changed your answer" in receipt.text
    await engine.choose(card.run_id, card.step_id, BOB, wrong.id)
    assert await engine.store.count_participants(card.run_id, card.step_id) == 2
    _, reveal = await engine.reveal(card.run_id, HOST)
    counts = {bar.label: (bar.count, bar.marked) for bar in reveal.bars}
    assert counts[right.label] == (1, True) and counts[wrong.label] == (1, False)
    assert sum(bar.count for bar in reveal.bars) == 2
    assert "1 of 2 (50%) chose the right answer." in reveal.notes


async def test_the_open_card_shows_only_how_many_answered(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    step = prediction(engine, card.step_id)
    await engine.choose(card.run_id, card.step_id, ALICE, step.choices[0].id)
    current = await engine.current_card(card.run_id)
    assert current.counter_text == "1 answered"
    summary = await engine.results(card.run_id)
    assert not any(step.title in line for line in summary.lines)


async def test_an_unknown_choice_is_refused_and_nothing_is_stored(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "prediction")
    with pytest.raises(UnknownChoice, match="not one of"):
        await engine.choose(card.run_id, card.step_id, ALICE, "made-up")
    assert await store.count_participants(card.run_id, card.step_id) == 0


async def test_answers_after_the_reveal_are_refused(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "prediction")
    step = prediction(engine, card.step_id)
    await engine.reveal(card.run_id, HOST)
    with pytest.raises(StepClosed, match="revealed"):
        await engine.choose(card.run_id, card.step_id, ALICE, step.choices[0].id)
    assert await store.count_participants(card.run_id, card.step_id) == 0


async def test_a_choice_on_a_narration_step_is_refused(engine: LessonEngine) -> None:
    card = await start_at(engine, "narration")
    with pytest.raises(WrongStep):
        await engine.choose(card.run_id, card.step_id, ALICE, "anything")


@pytest.mark.parametrize(
    ("action", "lacks"),
    [
        (Action.UP, "sample attempts"),
        (Action.CHECK, "sample attempts"),
        (Action.ANSWER, "answer box"),
    ],
)
async def test_a_button_of_another_kind_of_step_is_refused_by_what_the_step_lacks(
    engine: LessonEngine, store: SqlRunStore, action: Action, lacks: str
) -> None:
    card = await start_at(engine, "prediction")
    arg = "" if action is Action.ANSWER else "anything"
    with pytest.raises(WrongStep, match=f"This step has no {lacks}."):
        await engine.click(Address(card.run_id, card.step_id, action, arg), ALICE)
    assert await store.count_participants(card.run_id, card.step_id) == 0


async def test_verifier_reveal_puts_thumbs_beside_the_checker(engine: LessonEngine) -> None:
    card = await start_at(engine, "verifier")
    step = next(s for s in engine.catalog.get().steps if s.id == card.step_id)
    assert isinstance(step, VerifierStep)
    flattering = next(a for a in step.attempts if a.style == "flattering")
    careful = next(a for a in step.attempts if a.style == "careful")
    for member in (ALICE, BOB, CAROL):
        await engine.rate(card.run_id, card.step_id, member, flattering.id, True)
    await engine.rate(card.run_id, card.step_id, ALICE, careful.id, False)
    _, reveal = await engine.reveal(card.run_id, HOST)
    rows = {row.style: row for row in reveal.rows}
    assert (rows["flattering"].thumbs_up, rows["flattering"].reward) == (3, 0)
    assert (rows["careful"].thumbs_down, rows["careful"].reward) == (1, 1)
    assert [row.style for row in reveal.rows if row.reward] == ["careful"]
    assert any(flattering.label in note and "favourite" in note for note in reveal.notes)
    chart = reveal.chart
    assert chart is not None and "(3 rated)" in chart.title
    assert [label for label, mark in zip(chart.labels, chart.marks, strict=True) if mark] == [
        careful.label]
    assert chart.series[0].values[chart.labels.index(flattering.label)] == 100.0


async def test_free_answers_are_graded_and_every_try_is_kept(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "free_answer")
    step = next(s for s in engine.catalog.get().steps if s.id == card.step_id)
    assert isinstance(step, FreeAnswerStep)
    wrong = await engine.submit_answer(card.run_id, card.step_id, ALICE, "12345")
    assert wrong.reward == 0 and wrong.text.startswith("Try 1")
    right = await engine.submit_answer(card.run_id, card.step_id, ALICE, step.gold)
    assert right.reward == 1 and right.text.startswith("Try 2")
    first = await engine.submit_answer(card.run_id, card.step_id, BOB, step.gold)
    assert first.reward == 1
    stats = await store.free_answer_stats(card.run_id, card.step_id)
    assert (stats.members, stats.attempts, stats.solved, stats.first_try_solved) == (2, 3, 2, 1)
    assert step.gold not in wrong.text


@pytest.mark.parametrize("text", ["", "   ", "9" * 201])
async def test_empty_or_long_answers_are_refused(
    engine: LessonEngine, store: SqlRunStore, text: str
) -> None:
    card = await start_at(engine, "free_answer")
    with pytest.raises(BadInput, match="1 to 200 characters"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, text)
    assert (await store.free_answer_stats(card.run_id, card.step_id)).attempts == 0


async def test_the_summary_shows_revealed_results(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    step = prediction(engine, card.step_id)
    right = step.correct_choice
    assert right is not None
    await engine.choose(card.run_id, card.step_id, ALICE, right.id)
    wrong = next(choice for choice in step.choices if not choice.correct)
    await engine.choose(card.run_id, card.step_id, BOB, wrong.id)
    await engine.reveal(card.run_id, HOST)
    summary = await engine.results(card.run_id)
    assert summary.members == 2
    assert any(step.title in line and "1 of 2 right (50%)" in line for line in summary.lines)
