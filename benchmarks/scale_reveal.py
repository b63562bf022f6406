"""Reveal time as a question's answers grow: the aggregates should be computed in SQL."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from benchmarks.databases import fresh_sqlite, sqlite_url
from benchmarks.lesson_setup import HOST, OpenQuestion, channel, lesson_engine, open_prediction
from benchmarks.seeding import seed_choices
from benchmarks.timing import elapsed_ms, median
from bot.engine import LessonEngine
from bot.model import Phase, Position, RunState
from storage import SqlRunStore, open_database

Figures = dict[str, float | str | None]


async def reveal_growth(
    template: Path, directory: Path, sizes: Sequence[int], repeats: int
) -> Figures:
    """Median reveal, results and live-card times at each size, on one fresh SQLite file."""
    database = open_database(sqlite_url(fresh_sqlite(template, directory, "reveal")))
    try:
        engine = lesson_engine(SqlRunStore(database))
        figures: Figures = {}
        first_member = 0
        for size in sizes:
            question = await open_prediction(engine, channel(size))
            await seed_choices(database, question, first_member, size)
            first_member += size
            await check_seeded(engine, question, size)
            figures.update(await time_views(engine, question, size, repeats))
        return figures
    finally:
        await database.dispose()


async def check_seeded(engine: LessonEngine, question: OpenQuestion, size: int) -> None:
    """Fail loudly unless the store sees exactly `size` answers at the question."""
    answered = await engine.store.count_participants(question.run_id, question.step.id)
    if answered != size:
        raise RuntimeError(f"seeded {size} answers but the store counts {answered}")


async def time_views(
    engine: LessonEngine, question: OpenQuestion, size: int, repeats: int
) -> Figures:
    """Median ms of the live card while open, of the reveal, and of the results after it."""
    run_id, step_id = question.run_id, question.step.id
    card_ms = await median_ms(lambda: timed(lambda: engine.current_card(run_id)), repeats)
    reveal_ms = await median_ms(lambda: reveal_and_reopen(engine, question), repeats)
    await engine.reveal(run_id, HOST, step_id)
    results_ms = await median_ms(lambda: timed(lambda: engine.results(run_id)), repeats)
    return {f"reveal_ms_{size}": reveal_ms, f"results_ms_{size}": results_ms,
            f"live_card_ms_{size}": card_ms}


async def reveal_and_reopen(engine: LessonEngine, question: OpenQuestion) -> float:
    """Reveal the question (timed), then reopen it untimed so it can be revealed again."""
    took = await timed(lambda: engine.reveal(question.run_id, HOST, question.step.id))
    run = await engine.open_run(question.run_id)
    reopened = Position(run.step_index, Phase.OPEN)
    await engine.store.move_run(run.id, run.position, reopened, RunState.ACTIVE, None)
    return took


async def timed(operation: Callable[[], Awaitable[object]]) -> float:
    """Milliseconds one awaited operation takes."""
    started = time.perf_counter()
    await operation()
    return elapsed_ms(started)


async def median_ms(measure: Callable[[], Awaitable[float]], repeats: int) -> float:
    """The median of `repeats` measurements."""
    return median([await measure() for _ in range(repeats)])
