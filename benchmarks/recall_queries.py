"""The delayed recall's queries with every member's check due: planning, finding, answering.

A lesson every member answered ended a recall delay ago (`recall_setup`). Through the engine,
as the bot's timer loop calls them: planning every member's check (one call), then finding the
checks due, a pace at a time, with every check due. Then, with every check sent, finding a
member's open check, as each click on a check does twice.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import update

from benchmarks.lesson_setup import channel, lesson_engine, member
from benchmarks.recall_setup import ended_lesson_of
from benchmarks.timing import elapsed_ms
from bot.engine import utc_now
from bot.service.recalls import DEFAULT_PACE
from storage import SqlRunStore, open_database
from storage.models import RecallCheckRow

WARM_UP_CALLS = 5
"""Untimed calls first, so the first timed one does not pay for compiling the statements."""
SPREAD = 7919
"""A prime: the members whose open check is looked up are spread over the table."""


@dataclass(frozen=True)
class QueryRound:
    """Milliseconds: planning every check once; each call finding due checks, an open check."""

    plan_ms: float
    due_ms: list[float]
    open_ms: list[float]
    checks: int


async def query_round(url: str, members: int, calls: int) -> QueryRound:
    """Seed `members` members' answers at an ended lesson, then time the recall's queries."""
    database = open_database(url)
    try:
        store = SqlRunStore(database)
        engine = lesson_engine(store)
        people = [member(n) for n in range(members)]
        run_id = await ended_lesson_of(engine, database, channel(1), people)
        started = time.perf_counter()
        planned = await engine.recall.plan_due()
        plan_ms = elapsed_ms(started)
        if planned != members:
            raise RuntimeError(f"planned {planned} checks for {members} members")

        async def due() -> object:
            found = await engine.recall.due_checks(DEFAULT_PACE, "discord")
            if len(found) != min(DEFAULT_PACE, members):
                raise RuntimeError(f"found {len(found)} due checks")
            return found

        due_ms = await timed_calls(lambda _n: due, calls)
        async with database.begin() as connection:
            await connection.execute(update(RecallCheckRow).where(
                RecallCheckRow.run_id == run_id).values(sent_at=utc_now()))

        def open_check(n: int) -> Callable[[], Awaitable[object]]:
            user = member(n * SPREAD % members).user_id

            async def check() -> object:
                found = await store.open_check(run_id, user, utc_now())
                if found is None:
                    raise RuntimeError(f"no open check for {user}")
                return found

            return check

        return QueryRound(plan_ms, due_ms, await timed_calls(open_check, calls), planned)
    finally:
        await database.dispose()


async def timed_calls(
    call: Callable[[int], Callable[[], Awaitable[object]]], calls: int
) -> list[float]:
    """Milliseconds of `calls` calls, one at a time, after `WARM_UP_CALLS` untimed ones."""
    for n in range(WARM_UP_CALLS):
        await call(n)()
    timings = []
    for n in range(WARM_UP_CALLS, WARM_UP_CALLS + calls):
        started = time.perf_counter()
        await call(n)()
        timings.append(elapsed_ms(started))
    return timings
