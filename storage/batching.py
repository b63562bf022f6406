"""A queue that hands everything waiting to one writer at a time, one transaction per batch."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
WriteBatch = Callable[[Sequence[Item]], Awaitable[Sequence[Result]]]

MAX_BATCH = 500


class BatchQueue(Generic[Item, Result]):
    """Callers await their own result; a single task writes whatever queued meanwhile."""

    def __init__(self, write_batch: WriteBatch[Item, Result], max_batch: int = MAX_BATCH) -> None:
        self.write_batch = write_batch
        self.max_batch = max_batch
        self._queue: list[tuple[Item, asyncio.Future[Result]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> Result:
        """Queue an item and wait until the batch holding it was written (or failed)."""
        done: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._queue.append((item, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._drain())
        return await done

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            try:
                results = await self.write_batch([item for item, _ in batch])
            except Exception as error:  # every caller of a failed batch learns why
                _settle_all(batch, error)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(result)


def _settle_all(batch: Sequence[tuple[Item, asyncio.Future[Result]]], error: Exception) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(error)
