"""Click time as a question's answers grow: one more answer should cost the same at 10 or 2,000."""

from __future__ import annotations

import time
from collections.abc import Sequence

from benchmarks.lesson_setup import (
    OpenQuestion,
    channel,
    choice_for,
    lesson_engine,
    member,
    open_prediction,
)
from benchmarks.seeding import seed_choices
from benchmarks.timing import elapsed_ms, median
from benchmarks.vote_paths import warm_up
from bot.engine import LessonEngine
from storage import SqlRunStore, open_database

FIRST_SEEDED_MEMBER = 1000
"""Seeded members are numbered after the warm-up's."""
MIN_CLICKS = 3
BUDGET_SECONDS = 5.0
"""Clicks stop after this long (but not before `MIN_CLICKS`), so a slow path ends in time."""


async def click_growth(url: str, sizes: Sequence[int], clicks: int) -> dict[str, float]:
    """Median ms of one click at a question already holding each number of answers."""
    database = open_database(url)
    try:
        engine = lesson_engine(SqlRunStore(database))
        await warm_up(engine)
        figures = {}
        first = FIRST_SEEDED_MEMBER
        for size in sizes:
            question = await open_prediction(engine, channel(1 + size))
            await seed_choices(database, question, first, size)
            first += size
            figures[f"click_ms_{size}"] = await median_click(engine, question, first, clicks)
            first += clicks
        return figures
    finally:
        await database.dispose()


async def median_click(
    engine: LessonEngine, question: OpenQuestion, first: int, clicks: int
) -> float:
    """The median time of up to `clicks` new members choosing, one after another."""
    timings: list[float] = []
    for number in range(first, first + clicks):
        if len(timings) >= MIN_CLICKS and sum(timings) > BUDGET_SECONDS * 1000:
            break
        started = time.perf_counter()
        await engine.choose(question.run_id, question.step.id, member(number),
                            choice_for(question, number))
        timings.append(elapsed_ms(started))
    return median(timings)
