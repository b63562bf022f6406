"""Any number of processes may migrate one database at once: one applies, the others wait."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import text

from fakes.environment import process_environment
from storage.database import open_database
from storage.migrate import alembic_config
from tests.storage.test_migrations import TABLES, tables_of

PROCESSES = 5


def head_revision() -> str:
    """The revision the migrations end at."""
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert head is not None
    return head


def upgrade_at_once(url: str, folder: Path) -> list[subprocess.CompletedProcess[str]]:
    """Start `python -m bot db upgrade` in several processes together; wait for every one."""
    env = process_environment(("DATABASE_URL",), {"DATABASE_URL": url})
    command = [sys.executable, "-m", "bot", "db", "upgrade"]
    started = [
        subprocess.Popen(command, env=env, cwd=folder, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(PROCESSES)
    ]
    finished = []
    for process in started:
        out, err = process.communicate(timeout=240)
        finished.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return finished


def assert_all_succeeded(results: list[subprocess.CompletedProcess[str]]) -> None:
    """Every process exited 0 without an error on its output."""
    for result in results:
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr


def test_processes_migrating_one_new_sqlite_file_together_all_succeed(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    assert_all_succeeded(upgrade_at_once(f"sqlite+aiosqlite:///{path}", tmp_path))
    assert tables_of(path) == TABLES
    with sqlite3.connect(path) as connection:
        versions = connection.execute("select version_num from alembic_version").fetchall()
    assert versions == [(head_revision(),)]


async def server_schema(url: str) -> tuple[set[str], list[str]]:
    """The tables of a PostgreSQL database's public schema, and its alembic_version rows."""
    engine = open_database(url)
    try:
        async with engine.connect() as connection:
            tables = await connection.execute(text(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            ))
            versions = await connection.execute(text("SELECT version_num FROM alembic_version"))
            return {name for (name,) in tables}, [version for (version,) in versions]
    finally:
        await engine.dispose()


def test_processes_migrating_one_new_server_database_together_all_succeed(
    scratch_server_database: str, tmp_path: Path
) -> None:
    assert_all_succeeded(upgrade_at_once(scratch_server_database, tmp_path))
    tables, versions = asyncio.run(server_schema(scratch_server_database))
    assert tables == TABLES
    assert versions == [head_revision()]
