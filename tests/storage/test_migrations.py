"""Migrations build the schema on an empty database and match the models."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from alembic import command
from storage.migrate import alembic_config, upgrade_sync
from storage.models import Base

TABLES = {
    "runs", "members", "votes", "checker_runs", "free_answers", "step_messages", "step_tallies",
    "deliveries", "alembic_version",
}


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("select name from sqlite_master where type = 'table'")
        return {name for (name,) in rows}


def test_upgrade_creates_every_table_on_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    assert tables_of(path) == TABLES


def test_the_migrations_match_the_models(tmp_path: Path) -> None:
    path = tmp_path / "compare.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    with create_engine(f"sqlite:///{path}").connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_db_upgrade_command_uses_database_url(tmp_path: Path) -> None:
    path = tmp_path / "cli.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{path}"}
    result = subprocess.run([sys.executable, "-m", "bot", "db", "upgrade"], env=env,
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert tables_of(path) == TABLES


def test_alembic_upgrade_head_reads_database_url_from_dot_env(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DATABASE_URL=sqlite+aiosqlite:///from-env.db\n")
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    ini = Path(__file__).resolve().parents[2] / "alembic.ini"
    alembic = Path(sys.executable).parent / "alembic"
    result = subprocess.run([str(alembic), "-c", str(ini), "upgrade", "head"], env=env,
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert tables_of(tmp_path / "from-env.db") == TABLES
    assert not (tmp_path / "lessonbot.db").exists()


def test_upgrade_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as connection:
        versions = connection.execute("select version_num from alembic_version").fetchall()
    assert versions == [(ScriptDirectory.from_config(alembic_config("")).get_current_head(),)]


def test_migrations_go_down_to_nothing_and_up_again(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'down.db'}"
    upgrade_sync(url)
    command.downgrade(alembic_config(url), "base")
    assert tables_of(tmp_path / "down.db") == {"alembic_version"}
    upgrade_sync(url)
    assert tables_of(tmp_path / "down.db") == TABLES


def test_upgrading_keeps_one_checker_run_per_member_attempt_and_step(tmp_path: Path) -> None:
    path = tmp_path / "repeats.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}", "0003")
    with sqlite3.connect(path) as connection:
        connection.execute(
            "insert into runs (id, platform, workspace_id, channel_id, lesson_id, lesson_version,"
            " host_id, state, step_index, phase, created_at, updated_at) values"
            " (1, 'slack', 'T1', 'C1', 'rlvr', 1, 'U0', 'active', 0, 'open', '2026', '2026')"
        )
        connection.execute(
            "insert into members (id, platform, workspace_id, user_id, display_name, created_at)"
            " values (1, 'slack', 'T1', 'U1', 'Ann', '2026')"
        )
        for attempt in ["a1"] * 300 + ["a2"]:
            connection.execute(
                "insert into checker_runs (run_id, step_id, member_id, attempt_id, outcome,"
                " read, reward, reason, created_at) values"
                " (1, 'check', 1, ?, 'graded', '1', 1, '', '2026')",
                (attempt,),
            )
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as connection:
        kept = connection.execute("select id, attempt_id from checker_runs order by id")
        assert kept.fetchall() == [(1, "a1"), (301, "a2")]
        with pytest.raises(sqlite3.IntegrityError):
            connection.execute(
                "insert into checker_runs (run_id, step_id, member_id, attempt_id, outcome,"
                " read, reward, reason, created_at) values"
                " (1, 'check', 1, 'a1', 'graded', '1', 1, '', '2026')"
            )
