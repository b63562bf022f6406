"""Work still to do after a request's ack: it waits while other requests are being acked.

Under a burst, the private replies and edits that follow acks would compete for the event
loop with the acks of the requests still arriving. They start once no request is being
decided and no stream of requests is arriving (or after `ACKS_FIRST_SECONDS` at most), and
a shutdown lets them finish first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Iterator
from typing import Any

from bot.arrivals import Arrivals
from bot.pending import PendingAcks

log = logging.getLogger(__name__)

DRAIN_SECONDS = 10.0
ACKS_FIRST_SECONDS = 3.0


class InFlight:
    """Requests being decided, and the tasks of those acknowledged but still being shown."""

    def __init__(
        self, acks_first: float = ACKS_FIRST_SECONDS, arrivals: Arrivals | None = None
    ) -> None:
        self.acks_first = acks_first
        self.arrivals = arrivals or Arrivals()
        self.acks = PendingAcks(self.arrivals)
        self._tasks: set[asyncio.Task[object]] = set()

    @contextlib.contextmanager
    def acknowledging(self) -> Iterator[None]:
        """Note a request's arrival and count it as being decided while the block runs."""
        self.acks.arrived()
        with self.acks.acknowledging():
            yield

    def start(self, work: Coroutine[Any, Any, object]) -> None:
        """Run `work` once acks are done, in flight until it ends; a failure is logged."""
        task = asyncio.ensure_future(self._after_acks(work))
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    async def _after_acks(self, work: Coroutine[Any, Any, object]) -> None:
        await self.acks.work_may_start(self.acks_first)
        await work

    def _finished(self, task: asyncio.Task[object]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a Slack request failed after its ack", exc_info=task.exception())

    def __len__(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Wait (up to `timeout` seconds) for the work in flight now to finish."""
        pending = self._tasks - {asyncio.current_task()}
        if pending:
            await asyncio.wait(pending, timeout=timeout)
