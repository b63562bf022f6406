"""Background chores of a running bot, such as pruning old delivery claims from its database.

Claims are pruned when the process starts and then every `PRUNE_EVERY` seconds, so even a
bot that is restarted often, or gets few clicks, keeps only a day of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from datetime import datetime
from typing import Any

from bot.engine import Clock, StoreUnavailable, utc_now

log = logging.getLogger(__name__)

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old delivery claims."""
Prune = Callable[[datetime], Awaitable[int]]


async def prune_once(prune: Prune, clock: Clock = utc_now) -> int:
    """Delete the delivery claims too old to matter; how many went (0 if the database is down)."""
    try:
        pruned = await prune(clock())
    except StoreUnavailable:
        return 0  # the store logs the outage once; the next round tries again
    except Exception:
        log.exception("could not prune old delivery claims")
        return 0
    if pruned:
        log.info("pruned %d delivery claims older than a day", pruned)
    return pruned


async def prune_forever(prune: Prune, every: float = PRUNE_EVERY, clock: Clock = utc_now) -> None:
    """Prune old delivery claims now, then every `every` seconds, until cancelled."""
    while True:
        await prune_once(prune, clock)
        await asyncio.sleep(every)


@contextlib.asynccontextmanager
async def running(*chores: Coroutine[Any, Any, None]) -> AsyncIterator[None]:
    """Run background chores while inside; cancel them (and wait for them) on the way out."""
    tasks = [asyncio.create_task(chore) for chore in chores]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
