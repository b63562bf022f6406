"""A lesson that ended one recall delay ago: every member who answered is owed a check now.

The run is started and moved to its first question through the engine, as a host would; the
members' answers are written in bulk (the rows `record_vote` writes); the run is ended, and
its end moved back by the plan's first delay and a minute, so each check is due as soon as
it is planned.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine

from benchmarks.lesson_setup import HOST, lesson_engine, open_prediction
from benchmarks.seeding import seed_people_choices
from bot.engine import LessonEngine
from bot.model import Member, Place
from storage import SqlRunStore
from storage.models import RunRow

OVERDUE = timedelta(minutes=1)
"""How long before now the checks fell due."""


async def ended_lesson(database: AsyncEngine, place: Place, people: Sequence[Member]) -> int:
    """A run in `place` where each of `people` answered, ended a recall delay ago; its id."""
    return await ended_lesson_of(lesson_engine(SqlRunStore(database)), database, place, people)


async def ended_lesson_of(
    engine: LessonEngine, database: AsyncEngine, place: Place, people: Sequence[Member]
) -> int:
    """The same through `engine`, whose store is on `database`."""
    question = await open_prediction(engine, place)
    await seed_people_choices(database, question, people)
    await engine.stop(question.run_id, HOST)
    await end_earlier(engine, database, question.run_id)
    return question.run_id


async def end_earlier(engine: LessonEngine, database: AsyncEngine, run_id: int) -> None:
    """Move a run's end back by its first recall delay and `OVERDUE`: its checks are due."""
    run = await engine.run(run_id)
    if run is None or run.ended_at is None or not run.recall_plan:
        raise RuntimeError(f"run {run_id} did not end with a recall plan")
    ended = run.ended_at - timedelta(seconds=run.recall_plan[0]) - OVERDUE
    async with database.begin() as connection:
        await connection.execute(update(RunRow).where(RunRow.id == run_id).values(ended_at=ended))
