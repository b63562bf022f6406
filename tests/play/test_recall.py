"""Play mode reveals the recall step with counts computed from what the players answered."""

from __future__ import annotations

import io
import re

import pytest

from bot.engine import LessonEngine
from bot.play.classmates import learning_assumption
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession
from lessons.loader import load_lesson
from lessons.schema import PredictionStep
from tests.play.test_play_mode import scripted_answers

RIGHT = "checkable-reward"


async def test_play_reveals_how_the_answers_moved(engine: LessonEngine) -> None:
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers()), out)
    session = PlaySession(engine, console, PlayOptions(seed=3, classmates=12))
    await session.run()
    text = " ".join(out.getvalue().split())

    run = await engine.store.find_latest_run(session.place)
    assert run is not None
    answers = await engine.store.export_answers(run.id)
    before = {a.user_id: a.value for a in answers if a.step_id == "what-changed"}
    after = {a.user_id: a.value for a in answers if a.step_id == "what-changed-again"}
    pairs = [(before[user], after[user]) for user in before.keys() & after.keys()]
    moved = sum(first != RIGHT and second == RIGHT for first, second in pairs)
    held = sum(first == second == RIGHT for first, second in pairs)
    left = sum(first == RIGHT and second != RIGHT for first, second in pairs)
    wrong = sum(RIGHT not in (first, second) for first, second in pairs)
    assert len(pairs) == 13 and after["you"] == before["you"] == RIGHT
    assert "RESULTS: SAME BRAIN, A YEAR LATER: AGAIN" in text.upper()
    assert (
        f"Before → after, among the 13 members who answered both times: {moved} moved "
        f"to the right answer, {held} held it, {left} left it, {wrong} stayed wrong." in text
    )
    summary = (
        f"Before → after: {moved} moved to the right answer, {held} held it, {left} left it, "
        f"{wrong} stayed wrong"
    )
    assert summary in text


MOVES = re.compile(
    r"Before → after, among the (\d+) members who answered both times: (\d+) moved to the right "
    r"answer, (\d+) held it, (\d+) left it, (\d+) stayed wrong\."
)
SEEDS = range(8)


async def recall_reveal(engine: LessonEngine, seed: int) -> tuple[str, str]:
    """A whole play session's intro and its recall step's reveal, as printed."""
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers()), out)
    await PlaySession(engine, console, PlayOptions(seed=seed, classmates=12)).run()
    text = " ".join(out.getvalue().split())
    intro, rest = text.split("── Step 1 of", 1)
    reveal = rest.split("── Results: Same brain, a year later: again", 1)[1]
    return intro, reveal.split("Press Enter", 1)[0]


@pytest.mark.slow
async def test_simulated_classmates_learn_and_the_reveal_says_it_is_assumed(
    engine: LessonEngine,
) -> None:
    again = load_lesson("rlvr").step_by_id("what-changed-again")
    assert isinstance(again, PredictionStep) and again.learned and again.kept
    learning = again.crowd().learning
    assert learning is not None
    assumption = learning_assumption(learning)
    assert f"moves to the right answer with a {again.learned:.0%} chance" in assumption
    assert f"keeps it with a {again.kept:.0%} chance" in assumption
    moved = left = 0
    for seed in SEEDS:
        intro, reveal = await recall_reveal(engine, seed)
        assert assumption in intro and assumption in reveal
        found = MOVES.search(reveal)
        assert found is not None, reveal
        members, seed_moved, held, seed_left, wrong = map(int, found.groups())
        assert members == 13 == seed_moved + held + seed_left + wrong and held >= 1
        assert seed_moved > seed_left, (seed, found.group(0))
        moved, left = moved + seed_moved, left + seed_left
    assert moved > 4 * left
