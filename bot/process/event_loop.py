"""The event loop the long-running bots run on: uvloop where it is installed.

uvloop does the socket work of asyncio in C. Under a burst of clicks the bot's time goes
mostly to HTTP requests and gateway frames, so it acknowledges clicks sooner on uvloop.
Where uvloop is missing (Windows), asyncio's own loop is used and everything still works.
A bot whose database file vanished stops with exit status 3 (`bot/process/database_watch.py`).
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from bot.process.database_watch import DATABASE_LOST_STATUS, DatabaseLost

T = TypeVar("T")
LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def fast_loop_factory() -> LoopFactory | None:
    """The loop factory of uvloop; None (asyncio's own loop) where uvloop is missing."""
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return None
    factory: LoopFactory = uvloop.new_event_loop
    return factory


def run_service(main: Coroutine[Any, Any, T]) -> T:
    """Run a long-running coroutine to completion on the fastest loop available.

    A bot stopped because its database file was lost (already logged) exits with status 3.
    """
    with asyncio.Runner(loop_factory=fast_loop_factory()) as runner:
        try:
            return runner.run(main)
        except DatabaseLost:
            raise SystemExit(DATABASE_LOST_STATUS) from None
