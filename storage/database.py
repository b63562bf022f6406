"""Creating the async engine: SQLite with WAL and a busy timeout, or PostgreSQL by URL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///lessonbot.db"
SQLITE_BUSY_TIMEOUT_MS = 5000


def create_engine(url: str = DEFAULT_DATABASE_URL) -> AsyncEngine:
    """An async engine for a database URL, tuned for the dialect."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        # One connection: SQLite has one writer, and a fair queue for it beats its busy handler.
        timeout = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        engine = create_async_engine(url, connect_args=timeout, pool_size=1, max_overflow=0)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
