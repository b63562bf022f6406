"""Waiting on a condition with a deadline, for work a bot finishes after it acknowledged."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

POLL_SECONDS = 0.01


async def wait_until(
    condition: Callable[[], Awaitable[bool]], timeout: float = 5.0, what: str = "a condition"
) -> None:
    """Return once `condition()` is true; fail the test if it is not by the deadline."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(POLL_SECONDS)
