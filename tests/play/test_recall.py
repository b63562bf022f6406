"""Play mode reveals the recall step with counts computed from what the players answered."""

from __future__ import annotations

import io

from bot.engine import LessonEngine
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession
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
    assert len(pairs) == 13 and after["you"] == before["you"] == RIGHT
    assert "RESULTS: SAME BRAIN, A YEAR LATER: AGAIN" in text.upper()
    assert (
        f"Before → after, among the 13 members who answered both times: {moved} moved "
        f"to the right answer, {held} held it, {left} left it." in text
    )
    summary = f"Before → after: {moved} moved to the right answer, {held} held it, {left} left it"
    assert summary in text
