"""Finding the due checks among many closed ones: a due-checks call at none, and at 200,000.

Two databases hold the same lesson, every member's check of which is due now
(`recall_setup`). The second also holds `closed` checks of an earlier lesson in another
channel, none of them to send: a third whose member could not be messaged (unreachable), a
third whose window has passed, a third whose member asked for no more. They fell due before
the live ones, so a query that reads checks in the order they fell due meets them first. The
rows are written as the bot's own paths leave them; then the timer loop's planning, which
runs every few seconds, runs on both databases (and, on PostgreSQL, a VACUUM ANALYZE, as
autovacuum would soon after). Calls finding a pace of due checks then alternate between the
two, round by round, each first every other round: each round gives the median call on each,
and the figure is the median over rounds of the one over the other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from benchmarks.lesson_setup import channel, lesson_engine, member
from benchmarks.recall_setup import ended_lesson_of
from benchmarks.timing import elapsed_ms, median
from bot.engine import LessonEngine, utc_now
from bot.service.recalls import DEFAULT_PACE
from storage import SqlRunStore, open_database
from storage.models import MemberRow, RecallCheckRow, RecallStopRow

CLOSED_PREFIX = "bench-closed-"
"""How the user ids of the members with closed checks begin."""
KINDS = 3
"""Unreachable, window passed, asked for no more: the closed checks take turns by member id."""
UNREACHABLE, PASSED, STOPPED = range(KINDS)
DAY = timedelta(days=1)
BATCH = 5000
"""Rows written a statement at a time."""
WARM_UP_CALLS = 3


@dataclass(frozen=True)
class ClosedSizes:
    """Members owed a check now, closed checks beside them, rounds, calls a round a database."""

    members: int
    closed: int
    rounds: int
    calls: int


@dataclass(frozen=True)
class ClosedRound:
    """Each round's median call (ms) without and with the closed checks."""

    none_ms: list[float]
    closed_ms: list[float]
    closed: int

    def figures(self, prefix: str) -> dict[str, float]:
        """The medians over rounds, and the ratio of closed over none (median of rounds')."""
        ratios = [many / few for few, many in zip(self.none_ms, self.closed_ms, strict=True)]
        return {
            f"{prefix}recall_due_none_ms": median(self.none_ms),
            f"{prefix}recall_due_closed_ms": median(self.closed_ms),
            f"{prefix}recall_due_closed_ratio": median(ratios),
            f"{prefix}recall_closed_checks": float(self.closed),
        }


async def closed_round(none_url: str, closed_url: str, sizes: ClosedSizes) -> ClosedRound:
    """Seed both databases (the second with the closed checks), then time them in turns."""
    opened = [open_database(none_url), open_database(closed_url)]
    try:
        engines = [lesson_engine(SqlRunStore(database)) for database in opened]
        people = [member(n) for n in range(sizes.members)]
        for engine, database in zip(engines, opened, strict=True):
            await ended_lesson_of(engine, database, channel(1), people)
        await seed_closed(engines[1], opened[1], sizes.closed)
        for engine, database in zip(engines, opened, strict=True):
            await engine.recall.plan_due()
            await vacuumed(database)
        timed: tuple[list[float], list[float]] = ([], [])
        for number in range(sizes.rounds):
            for which in (number % 2, 1 - number % 2):  # each goes first every other round
                timed[which].append(median(await due_calls(engines[which], sizes)))
        return ClosedRound(*timed, sizes.closed)
    finally:
        for database in opened:
            await database.dispose()


async def vacuumed(database: AsyncEngine) -> None:
    """On PostgreSQL, the checks' table as autovacuum leaves it a minute after the settling.

    An UPDATE leaves each row's old version, and its index entries, until a VACUUM; the
    timer loop settles a few checks at a time, where this setup settles them all at once.
    """
    if database.dialect.name == "postgresql":
        async with database.execution_options(isolation_level="AUTOCOMMIT").connect() as c:
            await c.execute(text(f"VACUUM ANALYZE {RecallCheckRow.__tablename__}"))


async def due_calls(engine: LessonEngine, sizes: ClosedSizes) -> list[float]:
    """Milliseconds of each call finding a pace of due checks, after a few untimed ones."""
    timings = []
    for number in range(WARM_UP_CALLS + sizes.calls):
        started = time.perf_counter()
        found = await engine.recall.due_checks(DEFAULT_PACE, "discord")
        if number >= WARM_UP_CALLS:
            timings.append(elapsed_ms(started))
        if len(found) != min(DEFAULT_PACE, sizes.members):
            raise RuntimeError(f"found {len(found)} due checks")
    return timings


async def seed_closed(engine: LessonEngine, database: AsyncEngine, count: int) -> None:
    """`count` closed checks of an earlier lesson in another channel, as the bot leaves them.

    Unreachable: `check_sent` noted that the member cannot be messaged. Window passed: never
    sent. Asked for no more: the member's stop in that channel (`stop_recalls`).
    """
    run = await engine.run(await ended_lesson_of(engine, database, channel(2), [member(-1)]))
    assert run is not None
    now = utc_now()
    async with database.begin() as connection:
        for first in range(0, count, BATCH):
            await connection.execute(insert(MemberRow), [
                {"platform": run.place.platform, "workspace_id": run.place.workspace,
                 "user_id": f"{CLOSED_PREFIX}{n}", "display_name": f"Closed {n}"}
                for n in range(first, min(first + BATCH, count))
            ])
        query = (select(MemberRow.id).where(MemberRow.user_id.startswith(CLOSED_PREFIX))
                 .order_by(MemberRow.id))
        members = list(await connection.scalars(query))
        for first in range(0, count, BATCH):
            batch = members[first:first + BATCH]
            await connection.execute(insert(RecallCheckRow), closed_checks(run.id, batch, now))
            stops = [{"member_id": m, "channel_id": run.place.channel, "created_at": now}
                     for m in batch if m % KINDS == STOPPED]
            await connection.execute(insert(RecallStopRow), stops)


def closed_checks(run_id: int, members: Sequence[int], now: datetime) -> list[dict[str, object]]:
    """The check rows of `members`, due two days ago: unreachable, window passed, or stopped."""
    due = now - timedelta(days=2)
    return [
        {"run_id": run_id, "member_id": member_id, "round": 1, "due_at": due,
         "closes_at": now - timedelta(hours=1) if member_id % KINDS == PASSED else now + DAY,
         "unreachable": member_id % KINDS == UNREACHABLE, "created_at": due}
        for member_id in members
    ]
