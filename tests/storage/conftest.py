"""Empty databases for migration tests: an SQLite file, or a scratch PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from fakes.server_database import run_autocommit
from tests.conftest import SERVER_URL

SCRATCH_DATABASE = "lessonbot_scratch_migrations"


@pytest.fixture
def scratch_server_database() -> Iterator[str]:
    """An empty PostgreSQL database beside TEST_DATABASE_URL's, dropped after the test."""
    if not SERVER_URL:
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL)")
    drop = f"DROP DATABASE IF EXISTS {SCRATCH_DATABASE} WITH (FORCE)"
    asyncio.run(run_autocommit(SERVER_URL, drop, f"CREATE DATABASE {SCRATCH_DATABASE}"))
    url = make_url(SERVER_URL).set(database=SCRATCH_DATABASE)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        asyncio.run(run_autocommit(SERVER_URL, drop))


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind the bot runs on (PostgreSQL with TEST_DATABASE_URL)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    url: str = request.getfixturevalue("scratch_server_database")
    return url
