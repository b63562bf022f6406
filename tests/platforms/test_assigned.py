"""Assigned lessons on the chat platforms: refused plainly until a member's steps can be shown."""

from __future__ import annotations

from bot.engine import LessonEngine
from tests.platforms.driver import Platform


async def test_assign_is_refused_with_a_clear_answer_and_stores_nothing(
    lesson: Platform, engine: LessonEngine
) -> None:
    reply = await lesson.ask("assign", options={"due": "3d"})
    assert reply.private and "Assigned lessons cannot be taken here yet" in reply.text
    assert "/lesson start" in reply.text
    assert lesson.posts() == []
    assert await engine.store.active_runs("discord") == []
    assert await engine.store.active_runs("slack") == []
    assert await engine.store.get_run(1) is None  # no run was ever stored
