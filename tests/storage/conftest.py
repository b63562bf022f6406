"""Empty databases for migration tests: an SQLite file, or a scratch PostgreSQL database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.server_database import database_name, scratch_database
from tests.conftest import GIVEN_SERVER_URL, SERVER_URL


@pytest.fixture
def scratch_server_database() -> Iterator[str]:
    """An empty PostgreSQL database beside this process's own, dropped after the test."""
    if not SERVER_URL:
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL)")
    name = f"{database_name(SERVER_URL)}_scratch_migrations"
    with scratch_database(GIVEN_SERVER_URL, name, migrated=False) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind the bot runs on (PostgreSQL with TEST_DATABASE_URL)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    url: str = request.getfixturevalue("scratch_server_database")
    return url
