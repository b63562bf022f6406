"""The test's database behind a switch, to take it away and bring it back.

SQLite: the bot opens the file through a link to its folder; removing the link leaves a
missing folder, and the bot's pooled connections are dropped as a crashed server drops them.
A server (PostgreSQL): the bot connects through a loopback TCP proxy; cutting it refuses new
connections and aborts the live ones, as a server going down does. Either way the test's own
`store` still reaches the same database, to see what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine


class Switch(Protocol):
    """A database URL that can be made unreachable and reachable again."""

    url: str

    async def down(self, database: AsyncEngine) -> None:
        """Make the database unreachable for `database` (an engine on `url`)."""
        ...

    async def up(self) -> None:
        """Make it reachable again."""
        ...


class FolderLink:
    """An SQLite file reached through a link to its folder, which can be removed."""

    def __init__(self, url: str, scratch: Path) -> None:
        real = Path(str(make_url(url).database))
        self.target = real.parent
        self.link = scratch / "database-folder"
        self.url = f"sqlite+aiosqlite:///{self.link / real.name}"

    async def down(self, database: AsyncEngine) -> None:
        """Remove the link, then drop the engine's open connections."""
        self.link.unlink()
        await database.dispose()

    async def up(self) -> None:
        """Put the link back."""
        self.link.symlink_to(self.target, target_is_directory=True)


class CuttableProxy:
    """A loopback TCP proxy in front of a database server, on the same port each time."""

    def __init__(self, server_url: str) -> None:
        self.target = make_url(server_url)
        self.port = 0
        self.url = ""
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def up(self) -> None:
        """Listen (on a free port the first time) and relay to the server."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        proxied = self.target.set(host="127.0.0.1", port=self.port)
        self.url = proxied.render_as_string(hide_password=False)

    async def down(self, database: AsyncEngine) -> None:
        """Stop listening, cut the connections in use, then drop the engine's pool."""
        await self.close()
        await database.dispose()

    async def close(self) -> None:
        """Stop relaying."""
        if self._server is not None and self._server.is_serving():
            self._server.close()
            await self._server.wait_closed()
        for writer in list(self._writers):
            writer.transport.abort()

    async def _relay(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        try:
            server_in, server_out = await asyncio.open_connection(
                self.target.host or "127.0.0.1", self.target.port or 5432
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
async def switchable_database(database_url: str, scratch: Path) -> AsyncIterator[Switch]:
    """The test's database behind a switch that is on: a folder link, or a proxy."""
    if make_url(database_url).get_backend_name() == "sqlite":
        link = FolderLink(database_url, scratch)
        await link.up()
        yield link
        return
    proxy = CuttableProxy(database_url)
    await proxy.up()
    try:
        yield proxy
    finally:
        await proxy.close()
