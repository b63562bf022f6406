"""A database server (PostgreSQL) for tests and benchmarks: scratch databases, emptied tables."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from storage.database import open_database
from storage.migrate import upgrade_sync
from storage.models import Base

RESTART_SEQUENCES = """
DO $$
DECLARE sequence record;
BEGIN
  FOR sequence IN SELECT schemaname, sequencename FROM pg_sequences
                  WHERE schemaname = current_schema() AND last_value IS NOT NULL LOOP
    PERFORM setval(format('%I.%I', sequence.schemaname, sequence.sequencename), 1, false);
  END LOOP;
END $$
"""
"""Every id counter the schema used back to 1, as a new database has them: `setval`, which
changes no table definition, instead of `ALTER SEQUENCE ... RESTART` (a tenth of the time,
and the other connections keep their cached catalog)."""


async def run_autocommit(url: str, *statements: str) -> None:
    """Run statements one by one, each committed at once (CREATE DATABASE needs that)."""
    engine = open_database(url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


def database_on_server(url: str, name: str) -> str:
    """The URL of the database `name` on the server of `url`."""
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def database_name(url: str) -> str:
    """The name of the database `url` opens."""
    return make_url(url).database or ""


@contextmanager
def scratch_database(url: str, name: str, *, migrated: bool = True) -> Iterator[str]:
    """A new database `name` on the server of `url` (migrated unless asked), dropped afterwards.

    A database left by an earlier run that was killed is dropped first, with its connections.
    """
    drop = f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    asyncio.run(run_autocommit(url, drop, f"CREATE DATABASE {name}"))
    scratch = database_on_server(url, name)
    try:
        if migrated:
            upgrade_sync(scratch)
        yield scratch
    finally:
        asyncio.run(run_autocommit(url, drop))


def empty_server_tables(url: str) -> None:
    """Delete every row and restart the ids, keeping the migrated schema (its own connection)."""
    asyncio.run(run_script(url, EMPTY_TABLES))


def empty_tables_script() -> str:
    """The statements that empty every table, as one script.

    Rows are deleted children first: on tables this small a DELETE costs a few milliseconds,
    where TRUNCATE gives every table a new file and costs over 100 ms a call.
    """
    deletes = [f"DELETE FROM {table.name}" for table in reversed(Base.metadata.sorted_tables)]
    return ";\n".join([*deletes, RESTART_SEQUENCES])


EMPTY_TABLES = empty_tables_script()


class SharedServerDatabase:
    """One test process's database on the server: an engine its tests share, emptied per test.

    Opening an engine's first connection costs the server a new backend and the driver a round
    of setup queries (about 40 ms); emptying the tables over a connection kept open costs one
    round trip. A test that leaves a connection checked out gets the next test a new engine,
    so no test inherits another's transaction.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = open_database(url)
        self._emptier: asyncpg.Connection | None = None

    async def emptied(self) -> str:
        """Empty every table, over the connection kept for it; the database's URL."""
        if self._emptier is None or self._emptier.is_closed():
            self._emptier = await asyncpg.connect(plain_url(self.url))
        await self._emptier.execute(EMPTY_TABLES)
        return self.url

    async def after_test(self) -> None:
        """Replace the engine if the test left one of its connections checked out."""
        if self.engine.pool.checkedout():  # type: ignore[attr-defined]
            await self.engine.dispose()
            self.engine = open_database(self.url)

    async def close(self) -> None:
        """Close the engine's connections and the emptying one."""
        await self.engine.dispose()
        if self._emptier is not None:
            await self._emptier.close()


def plain_url(url: str) -> str:
    """The URL as asyncpg reads it, without SQLAlchemy's driver name."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def run_script(url: str, script: str) -> None:
    """Run several statements, given as one text, in one round trip (asyncpg's simple query)."""
    connection = await asyncpg.connect(plain_url(url))
    try:
        await connection.execute(script)
    finally:
        await connection.close()
