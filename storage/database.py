"""Opening the database: an SQLAlchemy async engine, SQLite (WAL, busy timeout) or PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///lessonbot.db"
SQLITE_BUSY_TIMEOUT_MS = 5000


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
    return create_async_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
