"""Timed runs: the engine's stored deadline reveals and moves on; the adapter posts it."""

from __future__ import annotations

from tests.conftest import FakeClock
from tests.discord_adapter.helpers import LessonDriver, buttons


async def test_a_timed_run_reveals_and_moves_on_by_itself(
    lesson: LessonDriver, clock: FakeClock
) -> None:
    intro = await lesson.start(timer=10)
    clock.advance(11)
    question = await lesson.step("what-changed")
    await lesson.fake.wait_until(lambda: all(b["disabled"] for b in buttons(intro)))

    before = len(lesson.messages())
    clock.advance(11)
    results = await lesson.reveal_after(before)
    assert "0 answered" in results["embeds"][0]["description"]
    assert all(b["disabled"] for b in buttons(question))

    assert not any(b["disabled"] for b in buttons(results))

    clock.advance(11)
    third = await lesson.step("three-stages")
    assert third["embeds"][0]["title"] == "Three stages of training"
    await lesson.fake.wait_until(lambda: all(b["disabled"] for b in buttons(results)))
    assert results["embeds"][0]["image"]["url"] == "attachment://chart.png"
