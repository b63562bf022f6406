"""Finding a value anywhere in a database: every table and column, as the database has them."""

from __future__ import annotations

from sqlalchemy import MetaData, select
from sqlalchemy.engine import Connection

from storage import SqlRunStore


def cells_holding(connection: Connection, needle: str) -> list[str]:
    """`table.column` of every stored value whose text contains `needle`, read by reflection."""
    tables = MetaData()
    tables.reflect(connection)
    found = []
    for table in tables.sorted_tables:
        for row in connection.execute(select(table)).mappings():
            found += [f"{table.name}.{name}" for name, value in row.items() if needle in str(value)]
    return found


async def traces_of(store: SqlRunStore, needle: str) -> list[str]:
    """Where in the store's database `needle` still appears (reflected, so new columns count)."""
    async with store.database.connect() as connection:
        return await connection.run_sync(cells_holding, needle)
