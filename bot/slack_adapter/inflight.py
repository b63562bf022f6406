"""Handler work still running after its ack, so a shutdown can let it finish first."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

DRAIN_SECONDS = 10.0


class InFlight:
    """The tasks of requests that were acknowledged but are still being shown."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[object]] = set()

    @contextlib.contextmanager
    def tracking(self) -> Iterator[None]:
        """Count the current task as in flight while the block runs."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    def __len__(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait (up to `timeout` seconds) for the work in flight now to finish."""
        current = asyncio.current_task()
        pending = {task for task in self._tasks if task is not current}
        if pending:
            await asyncio.wait(pending, timeout=timeout)
