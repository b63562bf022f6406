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
  FOR sequence IN SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', sequence.sequencename);
  END LOOP;
END $$
"""
"""Every id counter of the schema back to 1, as a new database has them."""


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
    """Delete every row and restart the ids, keeping the migrated schema.

    Rows are deleted children first: on tables this small a DELETE costs a few milliseconds,
    where TRUNCATE gives every table a new file and costs over 100 ms a call. The statements
    go as one script, in one round trip, over a bare connection.
    """
    deletes = [f"DELETE FROM {table.name}" for table in reversed(Base.metadata.sorted_tables)]
    asyncio.run(run_script(url, ";\n".join([*deletes, RESTART_SEQUENCES])))


async def run_script(url: str, script: str) -> None:
    """Run several statements, given as one text, in one round trip (asyncpg's simple query)."""
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(plain)
    try:
        await connection.execute(script)
    finally:
        await connection.close()
