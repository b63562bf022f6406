"""Background chores of a running bot: its lesson timers, pruning old claims, its heartbeat.

The timer loop fires the timed reveals and advances that are due, every second by default.

Claims are pruned when the process starts and then every `PRUNE_EVERY` seconds, so even a
bot that is restarted often, or gets few clicks, keeps only a day of them.

With HEALTH_FILE set, the bot touches that file every HEALTH_INTERVAL seconds while it is
connected to its platform and its database answers. `lessonbot health` (a container's health
check) reads the file's age: three missed beats and the bot counts as unhealthy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.engine import Clock, utc_now
from bot.model import StoreUnavailable

log = logging.getLogger(__name__)

Fire = Callable[[], Awaitable[int]]
"""Fires the timers that are due and shows what they did; how many fired."""
PRUNE_EVERY = 3600.0
"""Seconds between two prunings of old delivery claims."""
Prune = Callable[[datetime], Awaitable[int]]
Probe = Callable[[], Awaitable[bool]]
"""A question the heartbeat asks: is the platform connected? does the database answer?"""
OUTAGE_PAUSE = 8.0
"""The longest pause of the timer loop while the database is down (seconds)."""
MISSED_BEATS = 3
"""Beats a bot may miss (a reconnect, a slow database) before its health check fails."""


async def run_timer_loop(
    fire: Fire, interval: float = 1.0, outage_pause: float = OUTAGE_PAUSE
) -> None:
    """Every `interval` seconds, fire the due timers.

    A round starts `interval` after the last one began (at once if that one took longer), so
    the time spent firing does not slow the loop's pace.

    While the database is down, the pause doubles up to `outage_pause` seconds, so the loop
    does not keep the one SQLite connection from the members' clicks, which are refused at once.
    """
    pause = interval
    while True:
        began = time.monotonic()
        fired = await fire_once(fire)
        if fired is None:
            pause = min(2 * pause, max(interval, outage_pause))
            await asyncio.sleep(pause)
            continue
        pause = interval
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - began)))


async def fire_once(fire: Fire) -> int | None:
    """Fire the timers that are due now; how many fired, None if the database is down."""
    try:
        return await fire()
    except StoreUnavailable:
        return None  # the store logs the outage once; a later tick tries again
    except Exception:
        log.exception("could not check lesson timers")
        return 0


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


async def beat_once(health_file: Path, probes: tuple[Probe, ...]) -> bool:
    """Touch `health_file` if every probe says yes; whether it was touched."""
    for probe in probes:
        if not await probe():
            return False
    stamp = f"{utc_now().isoformat(timespec='seconds')}\n"
    await asyncio.to_thread(health_file.write_text, stamp, encoding="utf-8")
    return True


async def beat_forever(health_file: Path, every: float, *probes: Probe) -> None:
    """Beat now and every `every` seconds until cancelled; then remove the file (not serving)."""
    try:
        while True:
            await beat_once(health_file, probes)
            await asyncio.sleep(every)
    finally:
        await asyncio.to_thread(health_file.unlink, missing_ok=True)


def health_report(health_file: Path, every: float, now: float | None = None) -> tuple[bool, str]:
    """Whether the bot beside `health_file` is healthy, and a line saying why."""
    try:
        age = (time.time() if now is None else now) - health_file.stat().st_mtime
    except FileNotFoundError:
        return False, (f"unhealthy: {health_file} is missing: the bot is starting, "
                       "has stopped, or never connected")
    if age > MISSED_BEATS * every:
        return False, (f"unhealthy: no heartbeat for {age:.0f} s (one is due every {every:g} s): "
                       "the bot is disconnected from its platform or its database")
    return True, f"healthy: last heartbeat {max(age, 0):.0f} s ago"
