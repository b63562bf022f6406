"""Live counters edited at most once per interval per message, however many clicks arrive."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Edit = Callable[[Hashable], Awaitable[None]]


class CounterThrottle:
    """Coalesces counter updates: the first edit happens at once, later ones wait their turn.

    `touch(key)` says "the count behind this message changed"; `edit(key)` is called with
    the latest state at most once per `interval` seconds per key, and always once more after
    the last change, so the final count is shown. A key's last edit time is dropped once it is
    an interval old (it no longer delays anything), so the map holds only recent messages.
    """

    def __init__(
        self, edit: Edit, interval: float = 2.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.edit = edit
        self.interval = interval
        self.clock = clock
        self._last: dict[Hashable, float] = {}
        self._pending: dict[Hashable, asyncio.Task[None]] = {}
        self._editing: dict[Hashable, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._pruned = clock()

    def touch(self, key: Hashable) -> None:
        """Note a change; schedule an edit unless one is already waiting."""
        if key in self._pending:
            return
        self._prune()
        wait = max(0.0, self._last.get(key, -self.interval) + self.interval - self.clock())
        task = asyncio.get_running_loop().create_task(self._edit_after(key, wait))
        self._pending[key] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        """Wait for every scheduled edit and every edit under way (at shutdown, in tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def forget(self, key: Hashable) -> None:
        """Cancel a waiting edit, e.g. when the question is revealed."""
        task = self._pending.pop(key, None)
        if task is not None:
            task.cancel()
        self._last.pop(key, None)

    def tracked(self) -> int:
        """How many messages' last edit times are kept."""
        return len(self._last)

    def _prune(self) -> None:
        """Drop, at most once an interval, the last edit times an interval old or older."""
        now = self.clock()
        if now - self._pruned < self.interval:
            return
        self._pruned = now
        self._last = {k: at for k, at in self._last.items() if now - at < self.interval}
        self._editing = {k: lock for k, lock in self._editing.items() if lock.locked()}

    async def _edit_after(self, key: Hashable, wait: float) -> None:
        try:
            if wait:
                await asyncio.sleep(wait)
            async with self._editing.setdefault(key, asyncio.Lock()):
                # An edit still under way when this one was scheduled may have ended late:
                # the interval counts from its end, so the platform sees them apart.
                rest = self._last.get(key, -self.interval) + self.interval - self.clock()
                if rest > 0:
                    await asyncio.sleep(rest)
                self._pending.pop(key, None)
                self._last[key] = self.clock()
                await self.edit(key)
                self._last[key] = self.clock()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("could not update a live counter")
