"""Noticing a SQLite database file that vanished or was replaced while the bot runs.

On Linux a deleted file stays usable through a connection already open to it, so the bot
would go on writing answers nobody will ever read; a new connection would find nothing (the
engine opens the file with `mode=rw`, so it is never created again). The watch compares the
file's identity (device and inode) with the one at startup, and on a change stops the bot:
it logs a message naming the file and cancels the bot's main task, which then ends with
`DatabaseLost`, turned into a non-zero exit status without a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot.process.upkeep import running

log = logging.getLogger(__name__)

WATCH_EVERY = 1.0
"""Seconds between two looks at the database file."""
DATABASE_LOST_STATUS = 3
"""The exit status of a bot stopped because its database file vanished or was replaced."""
FileIdentity = tuple[int, int]


class DatabaseLost(Exception):
    """The SQLite database file vanished or was replaced while the bot was running."""


def file_identity(path: Path) -> FileIdentity | None:
    """The device and inode of a file, or None if there is no file at `path`."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino


def lost_message(path: Path, identity: FileIdentity | None) -> str:
    """What to tell the operator about a database file that is no longer the one opened."""
    what = "vanished" if identity is None else "was replaced by another file"
    return (
        f"The database file {path} {what} while the bot was running. Stopping rather than "
        "run on an empty or unknown database: put the file back (for example from a backup) "
        "and start the bot again; starting it without the file creates a new, empty one."
    )


@dataclass
class DatabaseWatch:
    """Watches one SQLite file for the bot's main task; `lost` says why it stopped the bot."""

    path: Path
    identity: FileIdentity
    main: asyncio.Task[object]
    lost: str | None = None

    @classmethod
    def of_current_task(cls, path: Path | None) -> DatabaseWatch | None:
        """A watch of the file as it is now, for the task running this code (None: no file)."""
        identity = file_identity(path) if path is not None else None
        main = asyncio.current_task()
        if path is None or identity is None or main is None:
            return None
        return cls(path, identity, main)

    def check(self) -> str | None:
        """Why the file is not the one opened at start any more, or None while it is."""
        identity = file_identity(self.path)
        if identity != self.identity and self.lost is None:
            self.lost = lost_message(self.path, identity)
        return self.lost

    async def run(self, every: float = WATCH_EVERY) -> None:
        """Look at the file every `every` seconds; once it changed, log and stop the bot."""
        while self.check() is None:  # noqa: ASYNC110 - a file system change sends no event
            await asyncio.sleep(every)
        log.critical("%s", self.lost)
        self.main.cancel()

    def reason_to_stop(self, error: BaseException) -> DatabaseLost | None:
        """The `DatabaseLost` to raise instead of `error`, if the file is gone or replaced."""
        if self.check() is None:
            return None
        if isinstance(error, asyncio.CancelledError):
            self.main.uncancel()
        return DatabaseLost(self.lost)


@contextlib.asynccontextmanager
async def watching(path: Path | None, every: float = WATCH_EVERY) -> AsyncIterator[None]:
    """Watch a SQLite file (if any) while inside; a lost file ends the block with DatabaseLost."""
    watch = DatabaseWatch.of_current_task(path)
    if watch is None:
        yield
        return
    try:
        async with running(watch.run(every)):
            yield
    except BaseException as error:
        lost = watch.reason_to_stop(error)
        if lost is None:
            raise
        raise lost from None
