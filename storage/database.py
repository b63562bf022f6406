"""Opening the database: an SQLAlchemy async engine, SQLite (WAL, busy timeout) or PostgreSQL."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///lessonbot.db"
SQLITE_BUSY_TIMEOUT_MS = 5000
SERVER_POOL_SIZE = 10
"""Connections to a database server, all opened once and kept: a burst never waits for new
ones (more would only queue more work at once on the server and slow the event loop)."""
IDLE_BEFORE_PING = 10.0
"""Seconds a pooled connection may rest before it is pinged on checkout: a busy connection
was just seen working, and a ping costs a round trip on every checkout."""


def open_database(url: str = DEFAULT_DATABASE_URL, create_file: bool = True) -> AsyncEngine:
    """An async engine for a database URL, tuned for the dialect.

    With `create_file` False, a SQLite file is opened read-write only if it exists, so a file
    that vanished is never silently replaced by a new, empty one.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(url)
        if path is not None and not create_file:
            parsed = existing_file_url(parsed, path)
        # One connection: SQLite has one writer, and a fair queue for it beats its busy handler.
        timeout = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        engine = create_async_engine(parsed, connect_args=timeout, pool_size=1, max_overflow=0)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    engine = create_async_engine(url, pool_size=SERVER_POOL_SIZE, max_overflow=0)
    event.listen(engine.sync_engine, "checkin", _note_checkin)
    event.listen(engine.sync_engine, "checkout", _check_if_idle)
    return engine


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names, as an absolute path; None for memory or another database."""
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    if parsed.query.get("uri") or database.startswith("file:"):
        return None  # already an SQLite URI: opened as the URI says
    return Path(os.path.abspath(database))


def existing_file_url(url: URL, path: Path) -> URL:
    """The URL that opens an existing SQLite file read-write and never creates it."""
    return url.set(database=path.as_uri()).update_query_dict({"mode": "rw", "uri": "true"})


def session_factory(database: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(database, expire_on_commit=False)


def statement_engine(database: AsyncEngine) -> AsyncEngine:
    """The engine whose statements each commit on their own on a server (autocommit).

    For reads and single-statement writes: no BEGIN and COMMIT or ROLLBACK around them,
    which on PostgreSQL are two round trips of three. SQLite's file needs no trip: as is.
    """
    if database.dialect.name == "sqlite":
        return database
    return database.execution_options(isolation_level="AUTOCOMMIT")


def statement_sessions(database: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reads and single-statement writes (`statement_engine`)."""
    return session_factory(statement_engine(database))


def _note_checkin(_dbapi_connection: Any, record: Any) -> None:
    """Note when a connection went back to the pool."""
    record.info["checked_in"] = time.monotonic()


def _check_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Ping a connection that rested `IDLE_BEFORE_PING` or longer; a dead one is replaced.

    SQLAlchemy's documented pessimistic check, raising `DisconnectionError` so the pool
    retries with a new connection, but only after a rest: `pool_pre_ping` would ping on every
    checkout.
    """
    rested = time.monotonic() - record.info.get("checked_in", time.monotonic())
    if rested < IDLE_BEFORE_PING:
        return
    try:
        dbapi_connection.ping()
    except Exception as error:
        raise exc.DisconnectionError(f"a pooled connection did not answer: {error}") from error


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
