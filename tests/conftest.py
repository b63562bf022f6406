"""Shared fixtures: a real checker worker, a migrated SQLite file per test, the engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.verifier import Checker
from storage import SqlRunStore, create_engine
from storage.migrate import upgrade_sync


class FakeClock:
    """A clock the tests move by hand, so timers fire without waiting."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.now += timedelta(seconds=seconds)


@pytest.fixture(scope="session")
async def checker() -> AsyncIterator[Checker]:
    """One real checker worker process for the whole session."""
    async with Checker(timeout=5.0) as running:
        yield running


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated once; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def database_url(migrated_template: Path, tmp_path: Path) -> str:
    """A fresh, migrated SQLite database file for one test."""
    path = tmp_path / "lessonbot.db"
    path.write_bytes(migrated_template.read_bytes())
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[SqlRunStore]:
    """The SQL store on the test's database."""
    database = create_engine(database_url)
    yield SqlRunStore(database)
    await database.dispose()


@pytest.fixture
def clock() -> FakeClock:
    """A hand-moved clock."""
    return FakeClock()


@pytest.fixture
def engine(store: SqlRunStore, checker: Checker, clock: FakeClock) -> LessonEngine:
    """The lesson engine on real storage and the real checker."""
    return LessonEngine(store, checker, LessonCatalog(), clock)
