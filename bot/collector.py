"""The cyclic garbage collector, held while a stream of requests arrives.

Under a burst every request keeps objects alive until it is answered (its connection, its
task, its parsed payload), so thousands of them sit in the collector's young generations and
every collection walks them all: in a burst of 2,000 clicks that was about a fifth of the
bot's CPU, with single pauses of 100 ms. Reference counting still frees almost everything at
once; only objects in reference cycles wait. So while `Arrivals` sees a stream, automatic
collection is off, and it is back on once the stream pauses and no request is waiting for
its acknowledgement, or after `LONGEST_HOLD` seconds of a stream that does not end (then not
held again until the stream pauses). Requests still waiting count as the stream going on:
the bot may spend longer than a pause on other work (a batch of votes) while they queue.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

from bot.arrivals import Arrivals

LONGEST_HOLD = 10.0


class CollectorHold:
    """Turns automatic garbage collection off during a stream of requests, and on after it."""

    def __init__(
        self, arrivals: Arrivals, waiting: Callable[[], bool], longest: float = LONGEST_HOLD
    ) -> None:
        self.arrivals = arrivals
        self.waiting = waiting
        self.longest = longest
        self._held_since: float | None = None
        self._spent = False

    @property
    def holding(self) -> bool:
        """Whether automatic collection is off because of a stream."""
        return self._held_since is not None

    def check(self, now: float) -> None:
        """After an arrival at loop time `now`: hold the collector if a stream is arriving."""
        hold = self.arrivals.hold_for(now)
        if not hold:
            self._spent = False
            return
        if self.holding or self._spent or not gc.isenabled():
            return  # already held, held too long, or the collector is someone else's to run
        gc.disable()
        self._held_since = now
        asyncio.get_running_loop().call_later(hold, self._recheck)

    def hold_left(self, now: float) -> float:
        """Seconds the collector should stay held from loop time `now` (0: let it run)."""
        if self._held_since is None or now - self._held_since >= self.longest:
            return 0.0
        return self.arrivals.pause if self.waiting() else self.arrivals.hold_for(now)

    def _recheck(self) -> None:
        now = asyncio.get_running_loop().time()
        hold = self.hold_left(now)
        if hold:
            asyncio.get_running_loop().call_later(hold, self._recheck)
            return
        assert self._held_since is not None
        self._spent = now - self._held_since >= self.longest
        self._held_since = None
        gc.enable()
