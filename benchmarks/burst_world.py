"""What a burst runs on: the engine, store and checker on one database, and the question."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from benchmarks.burst_timing import settled
from bot.engine import LessonCatalog, LessonEngine
from bot.runtime import Runtime
from bot.verifier import Checker
from lessons.schema import PredictionStep
from storage import SqlRunStore, create_engine

CHECKER_TIMEOUT = 5.0


@asynccontextmanager
async def runtime_on(url: str) -> AsyncIterator[Runtime]:
    """The engine on the database at `url` with a running checker; all closed afterwards."""
    database = create_engine(url)
    try:
        async with Checker(timeout=CHECKER_TIMEOUT) as checker:
            store = SqlRunStore(database)
            engine = LessonEngine(store, checker, LessonCatalog())
            yield Runtime(engine, store, checker, database)
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
