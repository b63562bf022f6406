"""Preparing a database server (PostgreSQL) for tests and benchmarks: reset, empty, run SQL."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from storage.database import open_database
from storage.models import Base


async def run_autocommit(url: str, *statements: str) -> None:
    """Run statements one by one, each committed at once (CREATE DATABASE needs that)."""
    engine = open_database(url).execution_options(isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


def reset_server_schema(url: str) -> None:
    """Drop every table, so the migrations run from an empty database."""
    asyncio.run(run_autocommit(url, "DROP SCHEMA public CASCADE", "CREATE SCHEMA public"))


def empty_server_tables(url: str) -> None:
    """Delete every row and restart the ids, keeping the migrated schema."""
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    asyncio.run(run_autocommit(url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
