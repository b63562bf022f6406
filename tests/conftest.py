"""Shared fixtures: a real checker worker, a migrated SQLite file per test, the engine."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.process.log_redaction import LIBRARY_LOGGERS
from bot.verifier import Checker
from fakes.server_database import (
    SharedServerDatabase,
    database_name,
    database_on_server,
    scratch_database,
)
from storage import SqlRunStore, open_database
from storage.migrate import upgrade_sync


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Spread the tests marked `slow` evenly through the run, keeping every other test's order.

    Most of them wait on bot processes more than they work; spread out, each worker meets them
    beside busy tests instead of all of them together at the end of the run.
    """
    slow = [item for item in items if item.get_closest_marker("slow")]
    if not slow or len(slow) == len(items):
        return
    others = iter([item for item in items if not item.get_closest_marker("slow")])
    every = len(items) / len(slow)
    places = {int(every * (number + 0.5)): item for number, item in enumerate(slow)}
    items[:] = [places[index] if index in places else next(others) for index in range(len(items))]


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


SLOW_ANSWER = "(a+b+c+d+e+f)^20"
"""An answer the parser allows whose check runs far past any timeout the tests use."""


@pytest.fixture
async def fair_checker() -> AsyncIterator[Checker]:
    """One worker whose slow checks give way after a 0.1 s turn to a waiting one."""
    async with Checker(workers=1, timeout=30.0, turn_seconds=0.1) as running:
        yield running


@pytest.fixture
async def broken_checker() -> AsyncIterator[Checker]:
    """A real checker whose workers cannot start (a 1 MB memory cap): every check fails."""
    broken = Checker(memory_mb=1, workers=1)
    yield broken
    await broken.close()


GIVEN_SERVER_URL = os.environ.get("TEST_DATABASE_URL", "")
"""The PostgreSQL database the suite was given; it only creates and drops the workers' ones."""

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
"""This test process's name: `gw0`, `gw1`… under pytest-xdist, `main` without it."""

SERVER_URL = (
    database_on_server(GIVEN_SERVER_URL, f"{database_name(GIVEN_SERVER_URL)}_{WORKER}")
    if GIVEN_SERVER_URL
    else ""
)
"""This test process's own database on that server, so workers running side by side never meet."""


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file migrated once; each test gets a copy."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade_sync(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def migrated_server() -> Iterator[str]:
    """This process's database on the TEST_DATABASE_URL server: made and migrated once, dropped."""
    if not SERVER_URL:
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL)")
    with scratch_database(GIVEN_SERVER_URL, database_name(SERVER_URL)) as url:
        yield url


@pytest.fixture(scope="session")
def server_or_none(request: pytest.FixtureRequest) -> str | None:
    """This process's migrated database on the server, or None when the suite runs on SQLite."""
    return request.getfixturevalue("migrated_server") if SERVER_URL else None


@pytest.fixture(scope="session")
def template_or_none(request: pytest.FixtureRequest) -> Path | None:
    """The migrated SQLite file tests copy, or None when the suite runs on the server."""
    return None if SERVER_URL else request.getfixturevalue("migrated_template")


@pytest.fixture(scope="session")
async def shared_server(server_or_none: str | None) -> AsyncIterator[SharedServerDatabase | None]:
    """That database's engine, shared by this process's tests, and its emptier (or None)."""
    if server_or_none is None:
        yield None
        return
    shared = SharedServerDatabase(server_or_none)
    yield shared
    await shared.close()


@pytest.fixture
async def database_url(
    shared_server: SharedServerDatabase | None, template_or_none: Path | None, tmp_path: Path
) -> str:
    """A fresh, migrated database for one test: a copied SQLite file, or an emptied server."""
    if shared_server is not None:
        return await shared_server.emptied()
    assert template_or_none is not None
    path = tmp_path / "lessonbot.db"
    path.write_bytes(template_or_none.read_bytes())
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
async def store(
    database_url: str, shared_server: SharedServerDatabase | None
) -> AsyncIterator[SqlRunStore]:
    """The SQL store on the test's database (on the server, over the shared engine)."""
    if shared_server is not None:
        yield SqlRunStore(shared_server.engine)
        await shared_server.after_test()
        return
    database = open_database(database_url)
    yield SqlRunStore(database)
    await database.dispose()


@pytest.fixture(autouse=True)
def restored_log_levels() -> Iterator[None]:
    """The root and library loggers' levels put back after a test that configures logging."""
    names = ("", *LIBRARY_LOGGERS)
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
def clock() -> FakeClock:
    """A hand-moved clock."""
    return FakeClock()


@pytest.fixture
def engine(store: SqlRunStore, checker: Checker, clock: FakeClock) -> LessonEngine:
    """The lesson engine on real storage and the real checker."""
    return LessonEngine(store, checker, LessonCatalog(), clock)
