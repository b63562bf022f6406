"""The storage limit: the same vote rows upserted with the bare driver, no ORM and no engine."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import aiosqlite
import asyncpg

from benchmarks.timing import Burst, burst

VoteRow = tuple[int, str, int, str, str]
"""run_id, step_id, member_id, kind, value."""

_TABLE = """
CREATE TABLE IF NOT EXISTS raw_votes (
    id {id_type} PRIMARY KEY,
    run_id BIGINT NOT NULL,
    step_id VARCHAR(32) NOT NULL,
    member_id BIGINT NOT NULL,
    kind VARCHAR(40) NOT NULL,
    value VARCHAR(40) NOT NULL,
    created_at TIMESTAMP{zone} NOT NULL,
    updated_at TIMESTAMP{zone} NOT NULL,
    CONSTRAINT uq_raw_votes UNIQUE (run_id, step_id, member_id, kind)
)"""
SQLITE_TABLE = _TABLE.format(id_type="INTEGER", zone="")
POSTGRES_TABLE = _TABLE.format(id_type="BIGSERIAL", zone=" WITH TIME ZONE")
_UPSERT = (
    "INSERT INTO raw_votes (run_id, step_id, member_id, kind, value, created_at, updated_at) "
    "VALUES ({p}) ON CONFLICT (run_id, step_id, member_id, kind) "
    "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)
SQLITE_UPSERT = _UPSERT.format(p=", ".join("?" * 7))
POSTGRES_UPSERT = _UPSERT.format(p=", ".join(f"${n}" for n in range(1, 8)))
SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA synchronous=NORMAL",
)


def vote_rows(count: int, run_id: int = 1, step_id: str = "question") -> list[VoteRow]:
    """One choice by each of `count` members at one step."""
    return [(run_id, step_id, number + 1, "choice", f"c{number % 4}") for number in range(count)]


async def _sqlite_connection(path: Path) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(path, timeout=5.0)
    for pragma in SQLITE_PRAGMAS:
        await connection.execute(pragma)
    return connection


@asynccontextmanager
async def sqlite_pool(path: Path, size: int) -> AsyncIterator[asyncio.Queue[aiosqlite.Connection]]:
    """`size` connections to an SQLite file with the bot's pragmas and the raw table."""
    pool: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
    for _ in range(size):
        pool.put_nowait(await _sqlite_connection(path))
    first = pool.get_nowait()
    await first.execute(SQLITE_TABLE)
    await first.commit()
    pool.put_nowait(first)
    try:
        yield pool
    finally:
        while not pool.empty():
            await pool.get_nowait().close()


async def _sqlite_upsert(pool: asyncio.Queue[aiosqlite.Connection], row: VoteRow) -> None:
    connection = await pool.get()
    try:
        now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
        await connection.execute(SQLITE_UPSERT, (*row, now, now))
        await connection.commit()
    finally:
        pool.put_nowait(connection)


async def sqlite_burst(
    path: Path, rows: Sequence[VoteRow], concurrency: int, connections: int
) -> Burst:
    """Upsert `rows` into an SQLite file, one transaction each, `concurrency` at a time."""
    async with sqlite_pool(path, connections) as pool:
        return await burst([partial(_sqlite_upsert, pool, row) for row in rows], concurrency)


async def postgres_burst(
    dsn: str, rows: Sequence[VoteRow], concurrency: int, connections: int
) -> Burst:
    """Upsert `rows` with asyncpg, one statement (and transaction) each."""
    pool = await asyncpg.create_pool(dsn, min_size=connections, max_size=connections)
    try:
        await pool.execute(POSTGRES_TABLE)
        await pool.execute("TRUNCATE raw_votes")
        return await burst([partial(_postgres_upsert, pool, row) for row in rows], concurrency)
    finally:
        await pool.close()


async def _postgres_upsert(pool: asyncpg.Pool, row: VoteRow) -> None:
    now = datetime.now(UTC)
    await pool.execute(POSTGRES_UPSERT, *row, now, now)
