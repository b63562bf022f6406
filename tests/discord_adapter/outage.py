"""Taking the test's database away and bringing it back, on SQLite and on PostgreSQL.

SQLite: the bot opens the file through a folder link; removing the link is a missing
folder, and the bot's pooled connections are dropped as a crashed server drops them.
PostgreSQL: the bot connects through a TCP relay; closing the relay refuses new
connections and cuts the live ones, as a server going down does.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Protocol

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine


class DatabaseGate(Protocol):
    """A way to the database that can be shut and opened again."""

    url: str

    async def shut(self, database: AsyncEngine) -> None:
        """Make the database unreachable for an engine on `url`."""
        ...

    async def open(self) -> None:
        """Make it reachable again."""
        ...

    async def close(self) -> None:
        """Clean up after the test."""
        ...


class FolderGate:
    """An SQLite file reached through a folder link that can vanish."""

    def __init__(self, url: str, scratch: Path) -> None:
        real = Path(str(make_url(url).database))
        self.target = real.parent
        self.link = scratch / "database-folder"
        self.url = f"sqlite+aiosqlite:///{self.link / real.name}"

    async def shut(self, database: AsyncEngine) -> None:
        """Remove the link and drop the engine's open connections."""
        self.link.unlink()
        await database.dispose()

    async def open(self) -> None:
        """Put the link back."""
        self.link.symlink_to(self.target, target_is_directory=True)

    async def close(self) -> None:
        """Nothing to clean up: the link lives in the test's scratch folder."""


async def gate_for(url: str, scratch: Path) -> DatabaseGate:
    """An open gate to the test's database, of the kind its backend needs."""
    gate: DatabaseGate = FolderGate(url, scratch) if url.startswith("sqlite") else RelayGate(url)
    await gate.open()
    return gate


class RelayGate:
    """A TCP relay in front of a database server; shutting it refuses and cuts connections."""

    def __init__(self, url: str) -> None:
        self.server_url = make_url(url)
        self.port = 0
        self.url = ""
        self._relay: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        """Listen (on the same port every time) and relay to the server."""
        self._relay = await asyncio.start_server(self._connect, "127.0.0.1", self.port)
        self.port = self._relay.sockets[0].getsockname()[1]
        self.url = self.server_url.set(host="127.0.0.1", port=self.port).render_as_string(False)

    async def shut(self, database: AsyncEngine) -> None:
        """Stop listening and cut every relayed connection."""
        await self.close()
        self._relay = None

    async def close(self) -> None:
        """Stop relaying."""
        if self._relay is not None:
            self._relay.close()
        for writer in list(self._links):
            writer.close()

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, port = self.server_url.host or "127.0.0.1", self.server_url.port or 5432
        try:
            server_reader, server_writer = await asyncio.open_connection(host, port)
        except OSError:
            writer.close()
            return
        self._links |= {writer, server_writer}
        await asyncio.gather(self._pipe(reader, server_writer), self._pipe(server_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        self._links.discard(writer)
        writer.close()
