"""Starting operations on a schedule, and waiting for a condition with a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
POLL_SECONDS = 0.02


async def paced(operations: Sequence[Callable[[], Awaitable[T]]], seconds: float) -> list[T]:
    """Start the operations evenly spread over `seconds`; their results, in order.

    Every operation's task is made and waiting for its turn before the first turn is
    scheduled, so making two thousand tasks does not push the first turns late and bunch them.
    """
    loop = asyncio.get_running_loop()
    turns: list[asyncio.Future[None]] = [loop.create_future() for _ in operations]

    async def on_turn(turn: asyncio.Future[None], operation: Callable[[], Awaitable[T]]) -> T:
        await turn
        return await operation()

    pairs = zip(turns, operations, strict=True)
    runs = [asyncio.ensure_future(on_turn(turn, operation)) for turn, operation in pairs]
    await asyncio.sleep(0)  # every task starts and waits for its turn
    begin = loop.time()
    gap = seconds / len(operations) if operations else 0.0
    for number, turn in enumerate(turns):
        loop.call_at(begin + number * gap, open_turn, turn)
    return await asyncio.gather(*runs)


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


@contextlib.contextmanager
def without_collector_pauses() -> Iterator[None]:
    """Hold this process's garbage collector while it plays the platform and sends a burst.

    The fake platform and the clicks live in this process; a full collection here would
    stall it for tens of milliseconds, bunching the clicks and delaying the moment an
    acknowledgement is noted, and that is not the bot's latency.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
