"""What a burst reads: the question it answers, and the votes the bot stored."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from benchmarks.burst_timing import settled
from bot.engine import LessonCatalog
from lessons.schema import PredictionStep
from storage import SqlRunStore, open_database


@asynccontextmanager
async def store_on(url: str) -> AsyncIterator[SqlRunStore]:
    """A store on the database at `url`, for reading what a bot in another process stored."""
    database = open_database(url)
    try:
        yield SqlRunStore(database)
    finally:
        await database.dispose()


def first_question() -> str:
    """The id of the default lesson's first prediction question."""
    lesson = LessonCatalog().get()
    return next(step.id for step in lesson.steps if isinstance(step, PredictionStep))


def shows_count(text: str, count: int) -> bool:
    """Whether a message's text says exactly `count` answered (not 12 for 2)."""
    return re.search(rf"(?<!\d){count} answered", text) is not None


async def stored_votes(store: SqlRunStore, run_id: int, step_id: str) -> int:
    """How many members have an answer stored at the step."""
    return await store.count_participants(run_id, step_id)


async def all_stored_by(
    store: SqlRunStore, run_id: int, step_id: str, count: int, deadline: float
) -> bool:
    """Whether `count` members had an answer stored at the step by the loop time `deadline`."""

    async def all_stored() -> bool:
        return await stored_votes(store, run_id, step_id) >= count

    return await settled(all_stored, deadline)


def spread(times: Sequence[float]) -> float:
    """Seconds from the first to the last of some moments (0 for none)."""
    return max(times) - min(times) if times else 0.0
