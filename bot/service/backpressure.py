"""Backpressure under a burst of clicks: acknowledgements first, the work after them later.

Both platforms want each request acknowledged within 3 seconds. Under a burst, work that
follows an ack (storing on Discord, private replies on Slack) waits until no request is being
acked, until the bot has read every request already waiting for it (Discord's gateway tells),
and, while requests stream in faster than the bot can both acknowledge and work
(`Arrivals`), until the stream pauses, so that work does not slip in between two requests of
a burst. However many pieces of work wait, one task watches for that moment, so a burst of
waiting work costs no more than one waiter.

One switch turns it all off (`BURST_HANDLING=false`): then every request is handled
straight through, as when the bot is quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator

STREAM_CLICKS = 20
STREAM_SECONDS = 0.02
"""20 clicks within 20 ms (1,000 a second or more) is a stream: acknowledging them takes all
the bot has, so their work waits until the stream pauses."""
PAUSE = 0.05
"""How long without a click counts as a pause in a stream."""


class Arrivals:
    """The arrival times of the latest clicks."""

    def __init__(
        self, pause: float = PAUSE, clicks: int = STREAM_CLICKS, seconds: float = STREAM_SECONDS
    ) -> None:
        self.pause = pause
        self.seconds = seconds
        self._recent: deque[float] = deque(maxlen=clicks)

    def note(self, now: float) -> None:
        """A click arrived at loop time `now`."""
        self._recent.append(now)

    def hold_for(self, now: float) -> float:
        """Seconds work should still wait: until a pause, while a stream is arriving; else 0."""
        full = len(self._recent) == self._recent.maxlen
        if not full or self._recent[-1] - self._recent[0] >= self.seconds:
            return 0.0
        return max(0.0, self._recent[-1] + self.pause - now)


class PendingAcks:
    """How many requests are being acknowledged now; lets work wait until acks come first."""

    def __init__(self, enabled: bool = True, arrivals: Arrivals | None = None) -> None:
        self.enabled = enabled
        self.arrivals = arrivals or Arrivals()
        self._count = 0
        self._none = asyncio.Event()
        self._none.set()
        self._caught_up = asyncio.Event()
        self._caught_up.set()
        self._watcher: asyncio.Future[None] | None = None

    def arrived(self) -> None:
        """Note that a request arrived now (streams are seen from these)."""
        if self.enabled:
            self.arrivals.note(asyncio.get_running_loop().time())

    def reading(self, behind: bool) -> None:
        """A platform read found its request already waiting (`behind`), or waited for one.

        While the bot is behind, requests are waiting to be read and acknowledged, so work
        waits too: on a slow machine a burst arrives more slowly than 1,000 a second, and
        `Arrivals` alone would let work slip in between its requests.
        """
        if behind:
            self._caught_up.clear()
        else:
            self._caught_up.set()

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

    def crowded(self) -> bool:
        """Whether other requests are being acknowledged beside this one, or a stream arrives."""
        if not self.enabled:
            return False
        now = asyncio.get_running_loop().time()
        return self._count > 1 or self.arrivals.hold_for(now) > 0

    async def work_may_start(self, timeout: float | None = None) -> None:
        """Wait (at most `timeout` seconds) until no ack is pending and no stream is arriving."""
        if not self.enabled:
            return
        now = asyncio.get_running_loop().time()
        if not self._count and self._caught_up.is_set() and not self.arrivals.hold_for(now):
            return
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.ensure_future(self._acknowledgements_done())
        await asyncio.wait({self._watcher}, timeout=timeout)  # never cancels the watcher

    async def _acknowledgements_done(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._none.wait()
            if not self._caught_up.is_set():
                await self._caught_up.wait()
                continue
            hold = self.arrivals.hold_for(loop.time())
            if not hold:
                return
            await asyncio.sleep(hold)
