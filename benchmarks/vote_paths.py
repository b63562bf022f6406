"""The ways a vote reaches the database: a click through the engine, or the bare store upsert."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from benchmarks.lesson_setup import channel, choice_for, lesson_engine, member, open_prediction
from benchmarks.store_probe import counting_traffic
from benchmarks.timing import Burst, Operation, burst
from bot.engine import LessonEngine
from storage import SqlRunStore, open_database

ENGINE_PATH = "engine"
STORE_PATH = "store"
WARM_UP_CLICKS = 20
TRAFFIC_NAMES = (
    "vote_statements_per_click",
    "vote_checkouts_per_click",
    "vote_statements_per_record",
    "vote_checkouts_per_record",
)


async def orm_burst(url: str, path: str, members: int, concurrency: int) -> Burst:
    """One burst of `members` clicks through the engine or straight into the store."""
    database = open_database(url)
    try:
        engine = lesson_engine(SqlRunStore(database))
        await warm_up(engine)
        return await burst(await vote_operations(engine, path, members), concurrency)
    finally:
        await database.dispose()


async def vote_operations(engine: LessonEngine, path: str, members: int) -> list[Operation]:
    """One operation per member answering a freshly opened prediction question."""
    question = await open_prediction(engine, channel(1))
    run_id, step_id = question.run_id, question.step.id

    def click(number: int) -> Callable[[], Awaitable[object]]:
        who, choice = member(number), choice_for(question, number)
        if path == ENGINE_PATH:
            return lambda: engine.choose(run_id, step_id, who, choice)
        return lambda: engine.store.record_vote(run_id, step_id, who, "choice", choice)

    return [click(number) for number in range(members)]


async def warm_up(engine: LessonEngine) -> None:
    """A few clicks on another run, so statement caches are warm before timing."""
    question = await open_prediction(engine, channel(0))
    for number in range(WARM_UP_CLICKS):
        choice = choice_for(question, number)
        await engine.choose(question.run_id, question.step.id, member(number), choice)


async def traffic_per_click(url: str) -> dict[str, float]:
    """Statements and pool checkouts of one warm click: through the engine, and the bare upsert."""
    database = open_database(url)
    try:
        engine = lesson_engine(SqlRunStore(database))
        question = await open_prediction(engine, channel(2))
        run_id, step_id = question.run_id, question.step.id
        await engine.choose(run_id, step_id, member(0), choice_for(question, 0))
        with counting_traffic(database) as clicked:
            await engine.choose(run_id, step_id, member(1), choice_for(question, 1))
        with counting_traffic(database) as recorded:
            await engine.store.record_vote(run_id, step_id, member(2), "choice",
                                           choice_for(question, 2))
    finally:
        await database.dispose()
    counts = (len(clicked.statements), clicked.checkouts,
              len(recorded.statements), recorded.checkouts)
    return {name: float(count) for name, count in zip(TRAFFIC_NAMES, counts, strict=True)}
