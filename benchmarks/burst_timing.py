"""Starting operations on a schedule, and waiting for a condition with a deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
POLL_SECONDS = 0.02


async def paced(operations: Sequence[Callable[[], Awaitable[T]]], seconds: float) -> list[T]:
    """Start the operations evenly spread over `seconds` from now; their results, in order."""
    loop = asyncio.get_running_loop()
    begin = loop.time()
    gap = seconds / len(operations) if operations else 0.0

    async def at(when: float, operation: Callable[[], Awaitable[T]]) -> T:
        turn: asyncio.Future[None] = loop.create_future()
        loop.call_at(when, open_turn, turn)
        await turn
        return await operation()

    return await asyncio.gather(
        *(at(begin + number * gap, operation) for number, operation in enumerate(operations))
    )


async def settled(condition: Callable[[], Awaitable[bool]], deadline: float) -> bool:
    """Whether `condition()` held by the loop time `deadline` (checked every 20 ms)."""
    loop = asyncio.get_running_loop()
    while not await condition():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(POLL_SECONDS)
    return True


def open_turn(turn: asyncio.Future[None]) -> None:
    """Let an operation waiting for its turn start (unless it was cancelled meanwhile)."""
    if not turn.done():
        turn.set_result(None)
