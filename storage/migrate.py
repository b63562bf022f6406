"""Applying Alembic migrations from code (`python -m bot db upgrade`, and on start).

Every process migrates on start, so migrations run under a lock held for their whole
transaction: a PostgreSQL advisory lock, or SQLite's own write lock (`BEGIN IMMEDIATE`).
A process that waits for the lock then finds the schema already at head and does nothing.
"""

from __future__ import annotations

import asyncio
import site
import sys
from pathlib import Path

from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection

from alembic import command

SOURCE_MIGRATIONS = Path(__file__).resolve().parent.parent / "alembic"
"""The Alembic scripts in a source checkout (and an editable install), beside the code."""
INSTALLED_MIGRATIONS = Path("share") / "lessonbot" / "alembic"
"""Where `pip install .` puts the Alembic scripts, under the environment's (or user's) prefix."""
MIGRATION_LOCK_KEY = 7_214_858_301_946_002
"""The PostgreSQL advisory lock id every process takes before migrating."""
SQLITE_LOCK_WAIT_MS = 120_000
"""How long a process waits for another one's SQLite migration to finish."""


def lock_for_migrations(connection: Connection) -> None:
    """Hold the database's migration lock until the connection's transaction ends."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
    elif connection.dialect.name == "sqlite":
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {SQLITE_LOCK_WAIT_MS}")
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def is_migrations_folder(folder: Path) -> bool:
    """Whether `folder` holds Alembic scripts (not the alembic library, a package of its own)."""
    return (folder / "env.py").is_file() and not (folder / "__init__.py").exists()


def migrations_folder() -> Path:
    """The Alembic scripts: the checkout's `alembic/`, else those installed with the bot."""
    candidates = [
        SOURCE_MIGRATIONS,
        Path(sys.prefix) / INSTALLED_MIGRATIONS,
        Path(site.getuserbase()) / INSTALLED_MIGRATIONS,
    ]
    for folder in candidates:
        if is_migrations_folder(folder):
            return folder
    raise FileNotFoundError(
        f"The migrations are in neither {candidates[0]} nor {candidates[1]}: reinstall the bot "
        "(pip install . installs them under share/lessonbot/alembic)."
    )


def alembic_config(url: str) -> Config:
    """An Alembic config for the project's migrations and a database URL (no alembic.ini)."""
    config = Config()
    config.set_main_option("script_location", str(migrations_folder()))
    config.attributes["url"] = url
    config.attributes["skip_logging"] = True
    return config


def upgrade_sync(url: str, revision: str = "head") -> None:
    """Migrate a database to `revision` (blocking)."""
    command.upgrade(alembic_config(url), revision)


async def upgrade_database(url: str, revision: str = "head") -> None:
    """Migrate a database without blocking the event loop (Alembic runs its own loop)."""
    await asyncio.to_thread(upgrade_sync, url, revision)
