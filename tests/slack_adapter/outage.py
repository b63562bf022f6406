"""A database the tests can take down and bring back: SQLite by hiding its folder, a server
(PostgreSQL) by cutting a loopback TCP proxy in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine


class Switchable(Protocol):
    """A database URL that can be made unreachable and reachable again."""

    url: str

    async def down(self, database: AsyncEngine) -> None:
        """Make the database unreachable (pooled connections are dropped too)."""
        ...

    async def up(self) -> None:
        """Make it reachable again."""
        ...


class HiddenSqliteFolder:
    """An SQLite file whose folder is renamed away: opening it fails as if the disk were gone."""

    def __init__(self, source_url: str, folder: Path) -> None:
        folder.mkdir()
        shutil.copyfile(make_url(source_url).database or "", folder / "lessonbot.db")
        self.folder = folder
        self.away = folder.with_name(folder.name + "-away")
        self.url = f"sqlite+aiosqlite:///{folder / 'lessonbot.db'}"

    async def down(self, database: AsyncEngine) -> None:
        """Close the pool, then hide the folder."""
        await database.dispose()
        self.folder.rename(self.away)

    async def up(self) -> None:
        """Put the folder back."""
        self.away.rename(self.folder)


class CuttableProxy:
    """A loopback TCP proxy to a database server; `down` refuses and cuts every connection."""

    def __init__(self, server_url: str) -> None:
        self.target = make_url(server_url)
        self.port = 0
        self.url = ""
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> CuttableProxy:
        """Listen on a free loopback port (the same one again after `up`)."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        url = self.target.set(host="127.0.0.1", port=self.port)
        self.url = url.render_as_string(hide_password=False)
        return self

    async def down(self, database: AsyncEngine) -> None:
        """Stop listening and cut the connections in use, then drop the pool."""
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        await self._server.wait_closed()
        await database.dispose()

    async def up(self) -> None:
        """Listen again."""
        await self.start()

    async def close(self) -> None:
        """Stop for good."""
        if self._server is not None and self._server.is_serving():
            self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()

    async def _relay(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        try:
            server_in, server_out = await asyncio.open_connection(
                self.target.host, self.target.port or 5432
            )
        except OSError:
            client_out.transport.abort()
            return
        self._writers |= {client_out, server_out}
        await asyncio.gather(
            _pipe(client_in, server_out), _pipe(server_in, client_out), return_exceptions=True
        )
        self._writers -= {client_out, server_out}


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.transport.abort()


@contextlib.asynccontextmanager
async def switchable_database(database_url: str, tmp_path: Path) -> AsyncIterator[Switchable]:
    """The test's database behind a switch: a server through a proxy, or an SQLite copy."""
    if make_url(database_url).get_backend_name() == "sqlite":
        yield HiddenSqliteFolder(database_url, tmp_path / "switchable")
        return
    proxy = await CuttableProxy(database_url).start()
    try:
        yield proxy
    finally:
        await proxy.close()
