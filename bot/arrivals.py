"""Whether clicks are streaming in faster than a bot can both acknowledge them and work.

Both adapters note each request as it arrives; the work that follows acks waits while a
stream is arriving (`bot.pending.PendingAcks`).
"""

from __future__ import annotations

from collections import deque

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
