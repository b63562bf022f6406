"""Opening a database server: connections checked only after a rest, reads without BEGIN."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import exc, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

import storage.database
from fakes.server_database import run_autocommit
from storage.database import (
    SERVER_POOL_SIZE,
    open_database,
    session_factory,
    statement_sessions,
)
from tests.conftest import SERVER_URL

needs_server = pytest.mark.skipif(not SERVER_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")


class Connection:
    """A pooled connection as the checkout check sees it: answers a ping, or is dead."""

    def __init__(self, alive: bool = True) -> None:
        self.alive = alive
        self.pings = 0

    def ping(self) -> None:
        """A round trip to the server."""
        self.pings += 1
        if not self.alive:
            raise OSError("connection is closed")


class Record:
    """The pool's record of a connection: when it was checked in."""

    def __init__(self, checked_in: float) -> None:
        self.info = {"checked_in": checked_in}


def test_a_connection_back_from_work_moments_ago_is_not_pinged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(storage.database.time, "monotonic", lambda: 100.0)
    connection = Connection()
    storage.database._check_if_idle(connection, Record(checked_in=99.0), None)
    assert connection.pings == 0


def test_a_connection_that_rested_is_pinged_and_a_dead_one_replaced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(storage.database.time, "monotonic", lambda: 100.0)
    rested = 100.0 - storage.database.IDLE_BEFORE_PING
    alive = Connection()
    storage.database._check_if_idle(alive, Record(checked_in=rested), None)
    assert alive.pings == 1
    with pytest.raises(exc.DisconnectionError):  # the pool then opens a new connection
        storage.database._check_if_idle(Connection(alive=False), Record(rested), None)


@pytest.fixture
async def server(migrated_server: str) -> AsyncIterator[AsyncEngine]:
    """The test server opened as the bot opens it."""
    database = open_database(migrated_server)
    try:
        yield database
    finally:
        await database.dispose()


@needs_server
async def test_a_connection_the_server_closed_while_it_rested_is_replaced(
    server: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with server.connect() as connection:
        pid = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    await run_autocommit(SERVER_URL, f"SELECT pg_terminate_backend({int(pid)})")
    monkeypatch.setattr(storage.database, "IDLE_BEFORE_PING", 0.0)  # as if it rested
    async with server.connect() as connection:
        assert (await connection.execute(text("SELECT 1"))).scalar_one() == 1
        assert (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one() != pid


@needs_server
async def test_reads_on_a_server_are_their_own_transaction_without_a_begin(
    server: AsyncEngine,
) -> None:
    async with statement_sessions(server)() as session:
        assert len(await transaction_starts(session)) == 2
    async with session_factory(server)() as session:  # one BEGIN, before both reads
        assert len(await transaction_starts(session)) == 1


async def transaction_starts(session: AsyncSession) -> set[object]:
    """When the transactions of two reads in a row began (one time if they shared one)."""
    moment = text("SELECT transaction_timestamp()")
    return {(await session.execute(moment)).scalar_one() for _ in range(2)}


@needs_server
async def test_the_server_pool_is_opened_once_and_never_overflows(server: AsyncEngine) -> None:
    connections = [await server.connect() for _ in range(SERVER_POOL_SIZE)]
    try:
        assert server.pool.checkedout() == SERVER_POOL_SIZE
        assert server.pool.overflow() <= 0
    finally:
        for connection in connections:
            await connection.close()
