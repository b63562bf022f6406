"""A count of requests still waiting for their acknowledgement, for work that must go after.

Both adapters give acknowledgements priority under a burst: work that follows an ack
(storing on Discord, private replies on Slack) waits until no request is being acked.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class PendingAcks:
    """How many requests are being acknowledged now; lets others wait until none is."""

    def __init__(self) -> None:
        self._count = 0
        self._none = asyncio.Event()
        self._none.set()

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

    async def none_left(self, timeout: float | None = None) -> None:
        """Wait until no request is being acknowledged (at most `timeout` seconds)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._none.wait()
