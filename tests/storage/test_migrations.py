"""Migrations build the schema on an empty database and match the models."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import bindparam, inspect, text
from sqlalchemy.engine import Connection

from alembic import command
from bot.model import Member, RunMode, RunState
from storage import SqlRunStore, open_database
from storage.migrate import alembic_config, upgrade_sync
from storage.models import Base
from storage.types import UTCDateTime

T = TypeVar("T")

TABLES = {
    "runs", "members", "votes", "checker_runs", "free_answers", "step_messages", "step_tallies",
    "deliveries", "member_passes", "reasons", "recall_checks", "recall_answers", "recall_stops",
    "recall_rounds", "alembic_version",
}
RECALL_TABLES = {"recall_checks", "recall_answers", "recall_stops", "recall_rounds"}


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("select name from sqlite_master where type = 'table'")
        return {name for (name,) in rows}


async def on_connection(url: str, read: Callable[[Connection], T]) -> T:
    """What `read` finds through a (sync) connection to the database at `url`."""
    engine = open_database(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(read)
    finally:
        await engine.dispose()


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


def model_differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_server_default": True})
    return list(compare_metadata(context, Base.metadata))


def test_upgrade_creates_every_table_on_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    assert tables_of(path) == TABLES


def test_the_migrations_match_the_models(empty_database_url: str) -> None:
    upgrade_sync(empty_database_url)
    assert asyncio.run(on_connection(empty_database_url, model_differences)) == []


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


def test_migrations_go_down_to_nothing_and_up_again(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade_sync(url)
    command.downgrade(alembic_config(url), "base")
    assert asyncio.run(on_connection(url, table_names)) == {"alembic_version"}
    upgrade_sync(url)
    assert asyncio.run(on_connection(url, table_names)) == TABLES


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


STAMP = bindparam("at", datetime(2026, 1, 1, tzinfo=UTC), type_=UTCDateTime())
OLD_RUN = text(
    "insert into runs (platform, workspace_id, channel_id, lesson_id, lesson_version, host_id,"
    " state, step_index, phase, created_at, updated_at) values"
    " ('slack', 'T1', 'C1', 'rlvr', 1, 'U0', 'active', 0, 'open', :at, :at) returning id"
).bindparams(STAMP)
OLD_MEMBER = text(
    "insert into members (platform, workspace_id, user_id, display_name, created_at)"
    " values ('slack', 'T1', 'U1', 'Ann', :at) returning id"
).bindparams(STAMP)
OLD_VOTE = text(
    "insert into votes (run_id, step_id, member_id, kind, value, created_at, updated_at)"
    " values (:run, 'q1', :member, 'choice', 'a', :at, :at)"
).bindparams(STAMP)


async def store_a_run_and_a_vote(url: str) -> int:
    """A run and one vote written with plain SQL, as the schema of 0005 had them."""
    engine = open_database(url)
    try:
        async with engine.begin() as connection:
            run_id = (await connection.execute(OLD_RUN)).scalar_one()
            member_id = (await connection.execute(OLD_MEMBER)).scalar_one()
            await connection.execute(OLD_VOTE, {"run": run_id, "member": member_id})
        return int(run_id)
    finally:
        await engine.dispose()


async def read_back(url: str, run_id: int) -> tuple[Any, int]:
    """The run as the store reads it, and how many votes it has."""
    engine = open_database(url)
    try:
        store = SqlRunStore(engine)
        return await store.get_run(run_id), await store.count_run_members(run_id)
    finally:
        await engine.dispose()


def vote_count(connection: Connection) -> int:
    """How many votes are stored, read with plain SQL (whatever the schema's revision)."""
    return int(connection.execute(text("select count(*) from votes")).scalar_one())


def run_columns(connection: Connection) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns("runs")}


def test_a_run_stored_before_assigned_runs_reads_back_as_live(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade_sync(url, "0005")
    run_id = asyncio.run(store_a_run_and_a_vote(url))
    upgrade_sync(url)
    run, members = asyncio.run(read_back(url, run_id))
    assert run is not None and run.state is RunState.ACTIVE and run.mode is RunMode.LIVE
    assert (run.due_at, run.remind_at, run.reminded_at) == (None, None, None)
    assert members == 1
    command.downgrade(alembic_config(url), "0005")
    assert "mode" not in asyncio.run(on_connection(url, run_columns))
    votes = asyncio.run(on_connection(url, lambda c: c.execute(text("select count(*) from votes"))
                                      .scalar_one()))
    assert votes == 1  # going down one revision keeps every run's answers


async def store_a_reason(url: str, run_id: int) -> dict[int, str]:
    """A reason saved by the store after the upgrade; the member's reasons read back."""
    engine = open_database(url)
    try:
        store = SqlRunStore(engine)
        await store.save_reason(run_id, "q1", Member("U1", "Ann"), 1, "a", "it has a checker")
        return await store.member_reasons(run_id, "q1", "U1")
    finally:
        await engine.dispose()


def test_reasons_come_and_go_with_their_migration_and_answers_stay(
    empty_database_url: str,
) -> None:
    url = empty_database_url
    upgrade_sync(url, "0007")
    run_id = asyncio.run(store_a_run_and_a_vote(url))
    upgrade_sync(url)
    assert asyncio.run(store_a_reason(url, run_id)) == {1: "it has a checker"}
    command.downgrade(alembic_config(url), "0007")
    assert "reasons" not in asyncio.run(on_connection(url, table_names))
    assert asyncio.run(on_connection(url, vote_count)) == 1  # the vote is still there


async def plan_a_recall(url: str, run_id: int) -> int:
    """The run ended with a three-day recall: the checks the store plans for it."""
    engine = open_database(url)
    try:
        async with engine.begin() as connection:
            ended = bindparam("ended", datetime(2026, 12, 1, tzinfo=UTC), type_=UTCDateTime())
            await connection.execute(
                text("update runs set state = 'finished', recall_plan = '259200', "
                     "ended_at = :ended where id = :run").bindparams(ended), {"run": run_id}
            )
        store = SqlRunStore(engine)
        run = await store.get_run(run_id)
        assert run is not None
        return await store.plan_checks(run, timedelta(days=2))
    finally:
        await engine.dispose()


def test_the_delayed_recall_comes_and_goes_with_its_migration_and_answers_stay(
    empty_database_url: str,
) -> None:
    url = empty_database_url
    upgrade_sync(url, "0008")
    run_id = asyncio.run(store_a_run_and_a_vote(url))
    upgrade_sync(url)
    run, _ = asyncio.run(read_back(url, run_id))
    assert (run.recall_plan, run.ended_at) == ((), None)  # runs from before keep no recall
    assert asyncio.run(plan_a_recall(url, run_id)) == 1  # the one member who voted
    command.downgrade(alembic_config(url), "0008")
    assert not RECALL_TABLES & asyncio.run(on_connection(url, table_names))
    assert not {"recall_plan", "ended_at"} & asyncio.run(on_connection(url, run_columns))
    assert asyncio.run(on_connection(url, vote_count)) == 1  # the vote is still there


def test_a_run_stored_before_run_languages_reads_back_in_english(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade_sync(url, "0009")
    run_id = asyncio.run(store_a_run_and_a_vote(url))
    upgrade_sync(url)
    run, _ = asyncio.run(read_back(url, run_id))
    assert run.language == "en"  # runs from before spoke English
    command.downgrade(alembic_config(url), "0009")
    assert "language" not in asyncio.run(on_connection(url, run_columns))
    assert asyncio.run(on_connection(url, vote_count)) == 1  # the vote is still there


def test_going_down_past_post_turns_keeps_every_runs_answers(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade_sync(url, "0005")
    asyncio.run(store_a_run_and_a_vote(url))
    upgrade_sync(url)
    command.downgrade(alembic_config(url), "0003")
    assert not {"post_holder", "post_until"} & asyncio.run(on_connection(url, run_columns))
    assert asyncio.run(on_connection(url, vote_count)) == 1  # the vote is still there
    command.downgrade(alembic_config(url), "base")
    assert asyncio.run(on_connection(url, table_names)) == {"alembic_version"}


async def an_unreachable_check(url: str, run_id: int) -> None:
    """A recall check noted unreachable, written with plain SQL as the schema of 0010 had it."""
    engine = open_database(url)
    try:
        async with engine.begin() as connection:
            due = bindparam("due", datetime(2026, 12, 1, tzinfo=UTC), type_=UTCDateTime())
            closes = bindparam("closes", datetime(2026, 12, 9, tzinfo=UTC), type_=UTCDateTime())
            await connection.execute(text(
                "insert into recall_checks (run_id, member_id, round, due_at, closes_at, "
                "unreachable, created_at) select :run, member_id, 1, :due, :closes, true, :due "
                "from votes"
            ).bindparams(due, closes), {"run": run_id})
    finally:
        await engine.dispose()


async def settled_now(url: str) -> int:
    """How many checks the timer loop's planning settles now (those left unsettled)."""
    engine = open_database(url)
    try:
        return await SqlRunStore(engine).settle_checks(datetime(2026, 12, 2, tzinfo=UTC))
    finally:
        await engine.dispose()


def check_columns(connection: Connection) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns("recall_checks")}


def test_checks_noted_before_settling_are_settled_and_the_column_goes_back(
    empty_database_url: str,
) -> None:
    url = empty_database_url
    upgrade_sync(url, "0010")
    run_id = asyncio.run(store_a_run_and_a_vote(url))
    asyncio.run(an_unreachable_check(url, run_id))
    upgrade_sync(url)
    assert asyncio.run(settled_now(url)) == 0  # settled by the migration
    command.downgrade(alembic_config(url), "0010")
    assert "settled" not in asyncio.run(on_connection(url, check_columns))
    upgrade_sync(url)
    assert asyncio.run(settled_now(url)) == 0
