"""INSERT ... ON CONFLICT for the two dialects the bot runs on."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

from bot.model.records import Member
from storage.models import MemberRow


def insert_for(dialect_name: str, table: Any) -> Any:
    """A dialect-specific INSERT that supports `on_conflict_do_update`."""
    if dialect_name == "postgresql":
        return postgresql.insert(table)
    if dialect_name == "sqlite":
        return sqlite.insert(table)
    raise ValueError(f"unsupported database dialect: {dialect_name}")


def upsert_statement(dialect_name: str, table: Any, keys: list[str], update: list[str]) -> Insert:
    """Insert rows, or on a clash of `keys` overwrite the `update` columns (values come later)."""
    statement = insert_for(dialect_name, table)
    changes = {column: statement.excluded[column] for column in update}
    result: Insert = statement.on_conflict_do_update(index_elements=keys, set_=changes)
    return result


def upsert(
    dialect_name: str, table: Any, values: dict[str, Any], keys: list[str], update: list[str]
) -> Insert:
    """Insert `values`, or on a clash of `keys` overwrite the `update` columns."""
    return upsert_statement(dialect_name, table, keys, update).values(**values)


def member_upsert(dialect_name: str) -> Insert:
    """Insert members, or keep the latest display name and locale of one already known.

    A locale not known this time (NULL) leaves the stored one as it is.
    """
    statement = insert_for(dialect_name, MemberRow.__table__)
    changes = {
        "display_name": statement.excluded.display_name,
        "locale": func.coalesce(statement.excluded.locale, MemberRow.__table__.c.locale),
    }
    keys = ["platform", "workspace_id", "user_id"]
    result: Insert = statement.on_conflict_do_update(index_elements=keys, set_=changes)
    return result


def member_values(platform: str, workspace: str, member: Member) -> dict[str, Any]:
    """A member's row as `member_upsert` writes it: their ids, name and locale (if known)."""
    locale = member.locale[:16] if member.locale is not None else None
    return {"platform": platform, "workspace_id": workspace, "user_id": member.user_id,
            "display_name": member.name[:100], "locale": locale}
