"""Fresh databases for a benchmark: migrated SQLite files, and a scratch PostgreSQL database."""

from __future__ import annotations

import asyncio
import os
import shutil
from contextlib import AbstractContextManager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from fakes.server_database import scratch_database
from storage import open_database
from storage.migrate import upgrade_sync

SERVER_URL_VARIABLE = "TEST_DATABASE_URL"


def sqlite_url(path: Path) -> str:
    """The async SQLAlchemy URL of an SQLite file."""
    return f"sqlite+aiosqlite:///{path}"


def migrated_template(directory: Path) -> Path:
    """An SQLite file with every migration applied, to copy from."""
    path = directory / "template.db"
    upgrade_sync(sqlite_url(path))
    return path


def fresh_sqlite(template: Path, directory: Path, name: str) -> Path:
    """A copy of the migrated template under a new name."""
    path = directory / f"{name}.db"
    shutil.copyfile(template, path)
    return path


def server_url() -> str | None:
    """The PostgreSQL URL to benchmark on, if one is configured."""
    return os.environ.get(SERVER_URL_VARIABLE) or None


def plain_dsn(url: str) -> str:
    """A SQLAlchemy URL as a DSN that asyncpg understands."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def server_version(url: str) -> str:
    """The version string of the database server at `url`."""

    async def ask() -> str:
        engine = open_database(url)
        try:
            async with engine.connect() as connection:
                return str((await connection.execute(text("SELECT version()"))).scalar_one())
        finally:
            await engine.dispose()

    return asyncio.run(ask())


def scratch_server_database(url: str, suffix: str = "") -> AbstractContextManager[str]:
    """A new, migrated database on the server of `url`, dropped afterwards.

    `suffix` tells apart two such databases of one benchmark.
    """
    return scratch_database(url, f"lessonbot_bench_{os.getpid()}{suffix}")
