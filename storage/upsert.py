"""INSERT ... ON CONFLICT for the two dialects the bot runs on."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert


def insert_for(dialect_name: str, table: Any) -> Any:
    """A dialect-specific INSERT that supports `on_conflict_do_update`."""
    if dialect_name == "postgresql":
        return postgresql.insert(table)
    if dialect_name == "sqlite":
        return sqlite.insert(table)
    raise ValueError(f"unsupported database dialect: {dialect_name}")


def upsert(
    dialect_name: str, table: Any, values: dict[str, Any], keys: list[str], update: list[str]
) -> Insert:
    """Insert `values`, or on a clash of `keys` overwrite the `update` columns."""
    statement = insert_for(dialect_name, table).values(**values)
    changes = {column: statement.excluded[column] for column in update}
    result: Insert = statement.on_conflict_do_update(index_elements=keys, set_=changes)
    return result
