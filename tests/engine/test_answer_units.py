"""The lesson's own problems through the engine, the real lesson file and the real checker."""

from __future__ import annotations

import re

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.model import BadInput, StepCard
from bot.verifier import Checker
from lessons.schema import Attempt, FreeAnswerStep, Lesson, VerifierStep
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, HOST, start_at

UNIT_REFUSAL = "This answer is in km/h"


def cyclist(lesson: Lesson) -> VerifierStep:
    """The lesson's verifier step: the cyclist's average speed, in km/h."""
    return next(step for step in lesson.steps if isinstance(step, VerifierStep))


def with_steps_replaced(lesson: Lesson, **replacing: VerifierStep | FreeAnswerStep) -> Lesson:
    """The lesson with the steps of the given kinds (verifier, free_answer) replaced."""
    steps = [replacing.get(step.kind.value, step) for step in lesson.steps]
    return lesson.model_copy(update={"steps": steps})


def engine_for(
    lesson: Lesson, store: SqlRunStore, checker: Checker, clock: FakeClock
) -> LessonEngine:
    """An engine running `lesson` in place of the shipped one."""
    catalog = LessonCatalog()
    catalog.add(lesson)
    return LessonEngine(store, checker, catalog, clock)


def test_the_cyclist_problem_names_its_unit() -> None:
    step = cyclist(LessonCatalog().get())
    assert (step.gold, step.unit) == ("20", "km/h")
    assert "km/h" in step.problem


@pytest.fixture
def cyclist_as_free_answer(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> LessonEngine:
    """The shipped lesson whose free-answer problem is the cyclist's, with its gold and unit."""
    lesson = LessonCatalog().get()
    problem = cyclist(lesson)
    free = next(step for step in lesson.steps if isinstance(step, FreeAnswerStep))
    typed = free.model_copy(
        update={"problem": problem.problem, "gold": problem.gold, "unit": problem.unit}
    )
    return engine_for(with_steps_replaced(lesson, free_answer=typed), store, checker, clock)


@pytest.mark.parametrize(
    "answer", ["20 km/h", "Final answer: 20 km/h", "20", "20 kph", "\\boxed{20 \\text{ km/h}}"]
)
async def test_a_typed_cyclist_answer_in_km_per_hour_or_bare_is_read_as_20(
    cyclist_as_free_answer: LessonEngine, answer: str
) -> None:
    engine = cyclist_as_free_answer
    card = await start_at(engine, "free_answer")
    receipt = await engine.submit_answer(card.run_id, card.step_id, ALICE, answer)
    assert receipt.reward == 1
    assert "the checker read **20**" in receipt.text and "Correct" in receipt.text


@pytest.mark.parametrize(
    ("answer", "read_as"),
    [("20 m/s", "'m/s' (metres per second)"), ("20 mph", "'mph' (miles per hour)"),
     ("Final answer: 20 m/s", "'m/s'")],
)
async def test_a_typed_cyclist_answer_in_another_unit_is_refused_naming_km_per_hour(
    cyclist_as_free_answer: LessonEngine, store: SqlRunStore, answer: str, read_as: str
) -> None:
    engine = cyclist_as_free_answer
    card = await start_at(engine, "free_answer")
    with pytest.raises(BadInput) as refused:
        await engine.submit_answer(card.run_id, card.step_id, ALICE, answer)
    told = str(refused.value)
    assert "could not read that, so it did not use a try" in told
    assert UNIT_REFUSAL in told and read_as in told
    assert "Give it in km/h" in told
    stats = await store.free_answer_stats(card.run_id, card.step_id)
    assert (stats.attempts, stats.solved) == (0, 0)


async def run_checker_on(engine: LessonEngine, text: str) -> str:
    """Rate every attempt of the cyclist step, then run the checker on the one reading `text`."""
    card: StepCard = await start_at(engine, "verifier")
    step = cyclist(engine.catalog.get())
    for attempt in step.attempts:
        await engine.rate(card.run_id, card.step_id, ALICE, attempt.id, True)
    target = next(attempt for attempt in step.attempts if attempt.text == text)
    return (await engine.run_checker(card.run_id, card.step_id, ALICE, target.id)).text


def with_careful_attempt_ending(lesson: Lesson, ending: str) -> tuple[Lesson, str]:
    """The lesson with the careful sample attempt's last line replaced by `ending`."""
    step = cyclist(lesson)
    attempts = list(step.attempts)
    index = next(i for i, attempt in enumerate(attempts) if attempt.style == "careful")
    text = attempts[index].text.rstrip().rsplit("\n", 1)[0] + f"\n{ending}\n"
    attempts[index] = Attempt(**{**attempts[index].model_dump(), "text": text, "expect": None})
    changed = step.model_copy(update={"attempts": attempts})
    return with_steps_replaced(lesson, verifier=changed), text


@pytest.mark.parametrize(
    ("ending", "reward", "shown"),
    [
        ("Final answer: 20 km/h", 1, "It read **20**;"),
        ("Final answer: 20", 1, "It read **20**;"),
        ("Final answer: \\boxed{20 \\text{ km/h}}", 1, "It read **20**;"),
        ("Final answer: 20 m/s", 0, UNIT_REFUSAL),
        ("Final answer: 20 mph", 0, UNIT_REFUSAL),
    ],
)
async def test_a_sample_attempt_is_graded_with_the_unit_it_ends_in(
    store: SqlRunStore, checker: Checker, clock: FakeClock, ending: str, reward: int, shown: str
) -> None:
    lesson, text = with_careful_attempt_ending(LessonCatalog().get(), ending)
    checked = await run_checker_on(engine_for(lesson, store, checker, clock), text)
    assert f"→ reward **{reward}**" in checked
    assert shown in checked


@pytest.mark.parametrize("answer", ["Final answer: 3/4", "0.75", "75%", "3/4", "75 percent"])
async def test_the_coin_problem_accepts_every_way_of_writing_three_quarters(
    engine: LessonEngine, answer: str
) -> None:
    card = await start_at(engine, "free_answer")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, FreeAnswerStep) and (step.gold, step.unit) == ("3/4", None)
    receipt = await engine.submit_answer(card.run_id, card.step_id, ALICE, answer)
    assert receipt.reward == 1, receipt.text


@pytest.mark.parametrize(
    ("answer", "reason"), [("3/4 km/h", "takes no unit"), ("3x/4", "I read a letter, 'x'")]
)
async def test_the_coin_problem_refuses_a_unit_or_a_letter_it_cannot_take(
    engine: LessonEngine, answer: str, reason: str
) -> None:
    card = await start_at(engine, "free_answer")
    with pytest.raises(BadInput, match=re.escape(reason)):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, answer)


async def test_the_reveal_gives_the_answer_with_its_unit(
    cyclist_as_free_answer: LessonEngine,
) -> None:
    engine = cyclist_as_free_answer
    card = await start_at(engine, "free_answer")
    await engine.submit_answer(card.run_id, card.step_id, ALICE, "20")
    _, reveal = await engine.reveal(card.run_id, HOST)
    assert any("The answer was **20 km/h**." in note for note in reveal.notes), reveal.notes
