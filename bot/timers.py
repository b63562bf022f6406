"""The background loop that fires timed reveals and advances."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.engine import LessonEngine, StoreUnavailable, TimerFired

log = logging.getLogger(__name__)

OnFired = Callable[[TimerFired], Awaitable[None]]


async def run_timer_loop(
    engine: LessonEngine, on_fired: OnFired, interval: float = 1.0, platform: str | None = None
) -> None:
    """Every `interval` seconds, fire the platform's due timers and hand each event on."""
    while True:
        await fire_once(engine, on_fired, platform)
        await asyncio.sleep(interval)


async def fire_once(engine: LessonEngine, on_fired: OnFired, platform: str | None = None) -> int:
    """Fire the timers that are due now; returns how many fired."""
    try:
        events = await engine.fire_due_timers(platform)
    except StoreUnavailable:
        return 0  # the store logs the outage once; the next tick tries again
    except Exception:
        log.exception("could not check lesson timers")
        return 0
    for event in events:
        try:
            await on_fired(event)
        except Exception:
            log.exception("could not show a timed step for run %s", event.run.id)
    return len(events)
