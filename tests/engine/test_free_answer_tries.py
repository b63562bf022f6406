"""The free-answer step's try cap: the same refusal on every platform, nothing graded past it."""

from __future__ import annotations

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.i18n import speaking
from bot.model import BadInput, TriesUsedUp
from bot.verifier import Checker
from lessons.schema import FreeAnswerStep, Lesson, PredictionStep
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at


def with_max_tries(lesson: Lesson, max_tries: int) -> Lesson:
    """The lesson with every free-answer step capped at `max_tries`."""
    steps = [
        step.model_copy(update={"max_tries": max_tries})
        if isinstance(step, FreeAnswerStep) else step
        for step in lesson.steps
    ]
    return lesson.model_copy(update={"steps": steps})


def capped_engine(
    store: SqlRunStore, checker: Checker, clock: FakeClock, tries: int
) -> LessonEngine:
    catalog = LessonCatalog()
    catalog.add(with_max_tries(catalog.get(), tries))
    return LessonEngine(store, checker, catalog, clock)


async def test_the_lesson_default_is_five_tries(engine: LessonEngine, store: SqlRunStore) -> None:
    card = await start_at(engine, "free_answer")
    receipts = [
        await engine.submit_answer(card.run_id, card.step_id, ALICE, str(n)) for n in range(5)
    ]
    assert "4 tries left" in receipts[0].text and receipts[0].tries_left == 4
    assert "1 try left" in receipts[3].text
    assert "That was your last try" in receipts[4].text and receipts[4].tries_left == 0
    with pytest.raises(TriesUsedUp, match="You have used your 5 tries"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")
    stats = await store.free_answer_stats(card.run_id, card.step_id)
    assert (stats.attempts, stats.solved) == (5, 0)


async def test_the_cap_comes_from_the_lesson_and_counts_each_member_apart(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    engine = capped_engine(store, checker, clock, tries=2)
    card = await start_at(engine, "free_answer")
    await engine.submit_answer(card.run_id, card.step_id, ALICE, "1")
    last = await engine.submit_answer(card.run_id, card.step_id, ALICE, "2")
    assert last.tries_left == 0
    with pytest.raises(TriesUsedUp, match="You have used your 2 tries"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3")
    solved = await engine.submit_answer(card.run_id, card.step_id, BOB, "3/4")
    assert solved.reward == 1 and solved.tries_left == 1
    stats = await store.free_answer_stats(card.run_id, card.step_id)
    assert (stats.members, stats.attempts) == (2, 3)


async def test_a_choice_receipt_keeps_its_reveal_note_apart(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    receipt = await engine.choose(card.run_id, card.step_id, ALICE, step.choices[0].id)
    assert "until the reveal" not in receipt.text
    assert receipt.full_text().endswith("You can change your mind until the reveal.")
    assert receipt.full_text(reveal_waits=False) == receipt.text


@pytest.mark.parametrize(
    ("language", "unreadable", "left"),
    [("en", "3 or 4", "You have 5 tries left."),
     ("es", "no lo sé", "Te quedan 5 intentos.")],
)
async def test_an_answer_the_checker_cannot_read_leaves_the_member_s_tries_as_they_were(
    engine: LessonEngine, store: SqlRunStore, language: str, unreadable: str, left: str
) -> None:
    card = await engine.start(CHANNEL, HOST, language=language)
    while card.kind != "free_answer":
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None
        card = advance.card
    with speaking(language), pytest.raises(BadInput) as refused:
        await engine.submit_answer(card.run_id, card.step_id, ALICE, unreadable)
    assert str(refused.value).endswith(left)
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 0
    first = await engine.submit_answer(card.run_id, card.step_id, ALICE, "1")
    assert first.tries_left == 4 and first.reward == 0
    stats = await store.free_answer_stats(card.run_id, card.step_id)
    assert (stats.members, stats.attempts) == (1, 1)
