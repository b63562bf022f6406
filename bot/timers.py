"""The background loop that fires timed reveals and advances."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.model import StoreUnavailable

log = logging.getLogger(__name__)

Fire = Callable[[], Awaitable[int]]
"""Fires the timers that are due and shows what they did; how many fired."""


async def run_timer_loop(fire: Fire, interval: float = 1.0) -> None:
    """Every `interval` seconds, fire the due timers."""
    while True:
        await fire_once(fire)
        await asyncio.sleep(interval)


async def fire_once(fire: Fire) -> int:
    """Fire the timers that are due now; returns how many fired."""
    try:
        return await fire()
    except StoreUnavailable:
        return 0  # the store logs the outage once; the next tick tries again
    except Exception:
        log.exception("could not check lesson timers")
        return 0
