"""Work still to do after a request's ack: it waits while other requests are being acked.

Under a burst, the private replies and edits that follow acks would compete for the event
loop with the acks of the requests still arriving. They start once no request is being
decided and no stream of requests is arriving (or after `ACKS_FIRST_SECONDS` at most), and
a shutdown lets them finish first. Work waits in a queue, not as a task of its own: one task
waits for the acks and then starts everything queued, so a burst's acks pay for no task or
timer per reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine, Iterator
from typing import Any

from bot.pending import PendingAcks

log = logging.getLogger(__name__)

DRAIN_SECONDS = 10.0
ACKS_FIRST_SECONDS = 3.0


class InFlight:
    """Requests being decided, and the tasks of those acknowledged but still being shown."""

    def __init__(self, acks_first: float = ACKS_FIRST_SECONDS) -> None:
        self.acks_first = acks_first
        self.acks = PendingAcks()
        self._tasks: set[asyncio.Future[object]] = set()
        self._queued: deque[Coroutine[Any, Any, object]] = deque()
        self._starter: asyncio.Future[None] | None = None

    @contextlib.contextmanager
    def acknowledging(self) -> Iterator[None]:
        """Note a request's arrival and count it as being decided while the block runs."""
        self.acks.arrived()
        with self.acks.acknowledging():
            yield

    def start(self, work: Coroutine[Any, Any, object]) -> None:
        """Run `work` once acks are done, in flight until it ends; a failure is logged."""
        self._queued.append(work)
        if self._starter is None or self._starter.done():
            self._starter = asyncio.ensure_future(self._start_queued())

    async def _start_queued(self) -> None:
        try:
            await self.acks.work_may_start(self.acks_first)
        finally:  # even if the wait is cancelled, nothing queued is left unstarted
            while self._queued:
                self._run(self._queued.popleft())

    def _run(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a Slack request failed after its ack", exc_info=task.exception())

    def _unfinished(self) -> set[asyncio.Future[Any]]:
        """Work started and not done yet, and the starter while it waits (not the caller)."""
        unfinished: set[asyncio.Future[Any]] = set(self._tasks)
        if self._starter is not None and not self._starter.done():
            unfinished.add(self._starter)
        unfinished.discard(asyncio.current_task())
        return unfinished

    def __len__(self) -> int:
        return len(self._tasks) + len(self._queued)

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait (up to `timeout` seconds) until the work in flight, queued work too, is done."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while pending := self._unfinished():
            if loop.time() >= deadline:
                return
            await asyncio.wait(pending, timeout=deadline - loop.time())
