"""A closed assignment's results carry each question's results, frozen at the close."""

from __future__ import annotations

from bot.engine import Action, LessonEngine
from bot.engine.cards import takes_answers
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST
from tests.engine.test_assigned import assign, button, walk_to

RIGHT, WRONG = "checkable-reward", "bigger-model"


async def test_the_results_carry_each_questions_results_only_once_closed(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    for member, choice in ((ALICE, RIGHT), (BOB, WRONG)):
        question = await walk_to(engine, run_id, member, "prediction")
        await engine.click(button(question, Action.CHOOSE, choice), member)
    assert (await engine.results(run_id)).reveals == ()  # nothing revealed while open

    closed = await engine.assigned.close(run_id, HOST)
    assert closed is not None
    lesson = engine.catalog.get(None)
    questions = [step.id for step in lesson.steps if takes_answers(step)]
    assert [reveal.step_id for reveal in closed.reveals] == questions
    first = closed.reveals[0]
    assert [(bar.count, bar.marked) for bar in first.bars if bar.count] == [(1, False), (1, True)]
    assert first.buttons == () and first.chart is not None

    await engine.forget_member(CHANNEL, BOB)  # revealed results keep their counts
    assert (await engine.results(run_id)).reveals == closed.reveals
