"""Preparing a database server (PostgreSQL) for tests: reset once, empty between tests."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from storage.database import create_engine
from storage.models import Base


async def _execute(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


def reset_server_schema(url: str) -> None:
    """Drop every table, so the migrations run from an empty database."""
    asyncio.run(_execute(url, "DROP SCHEMA public CASCADE", "CREATE SCHEMA public"))


def empty_server_tables(url: str) -> None:
    """Delete every row and restart the ids, keeping the migrated schema."""
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    asyncio.run(_execute(url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
