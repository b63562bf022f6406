"""Requests still waiting for their acknowledgement, and when the work after them may start.

Both adapters give acknowledgements priority under a burst: work that follows an ack
(storing on Discord, private replies on Slack) waits until no request is being acked and,
while requests stream in (`Arrivals`), until the stream pauses, so that work does not slip
in between two requests of a burst. However many pieces of work wait, one task watches for
that moment, so a burst of waiting work costs no more than one waiter.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from bot.arrivals import Arrivals


class PendingAcks:
    """How many requests are being acknowledged now; lets work wait until acks come first."""

    def __init__(self, arrivals: Arrivals | None = None) -> None:
        self.arrivals = arrivals or Arrivals()
        self._count = 0
        self._none = asyncio.Event()
        self._none.set()
        self._watcher: asyncio.Future[None] | None = None

    def arrived(self) -> None:
        """Note that a request arrived now (streams are seen from these)."""
        self.arrivals.note(asyncio.get_running_loop().time())

    @contextlib.contextmanager
    def acknowledging(self) -> Iterator[None]:
        """Count one request as being acknowledged while the block runs."""
        self._count += 1
        self._none.clear()
        try:
            yield
        finally:
            self._count -= 1
            if not self._count:
                self._none.set()

    async def work_may_start(self, timeout: float | None = None) -> None:
        """Wait (at most `timeout` seconds) until no ack is pending and no stream is arriving."""
        if not self._count and not self.arrivals.hold_for(asyncio.get_running_loop().time()):
            return
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.ensure_future(self._acknowledgements_done())
        await asyncio.wait({self._watcher}, timeout=timeout)  # never cancels the watcher

    async def _acknowledgements_done(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._none.wait()
            hold = self.arrivals.hold_for(loop.time())
            if not hold:
                return
            await asyncio.sleep(hold)
