"""Wiring: database, migrations, checker and lessons into one ready `LessonEngine`.

While the runtime is open, old delivery claims are pruned (at start, then every hour), and a
SQLite database file is watched: if it vanishes or is replaced, the bot stops with
`DatabaseLost` rather than run on an empty file (`bot/process/database_watch.py`).

Once started, garbage-collector pauses stay short. Imports (sympy, discord.py, SQLAlchemy)
leave hundreds of thousands of long-lived objects. A full collection walks all of them, which
stalls the event loop for tens of milliseconds in the middle of a burst of clicks. Freezing
them after startup takes them out of every pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.engine import Clock, LessonCatalog, LessonEngine, utc_now
from bot.process.database_watch import watching
from bot.process.upkeep import Probe, beat_forever, prune_forever, running
from bot.settings import Settings
from bot.verifier import Checker
from storage import SqlRunStore, open_database, sqlite_file, upgrade_database

log = logging.getLogger(__name__)

MAX_WAIT_TIMEOUTS = 5
"""How many check timeouts an answer may wait for a free worker before the member is told."""


@dataclass
class Runtime:
    """The running parts a platform adapter works with."""

    engine: LessonEngine
    store: SqlRunStore
    checker: Checker
    database: AsyncEngine


@asynccontextmanager
async def open_runtime(
    settings: Settings, catalog: LessonCatalog | None = None, migrate: bool = True,
    clock: Clock = utc_now,
) -> AsyncIterator[Runtime]:
    """Migrate the database, start the checker, and yield the engine; clean up after.

    `clock` is the engine's time: play mode moves its own on to reach a delayed recall.
    """
    if migrate:
        await upgrade_database(settings.database_url)
    database = open_database(settings.database_url, create_file=False)
    checker = bot_checker(settings)
    await checker.start()
    store = SqlRunStore(database)
    catalog = catalog or LessonCatalog(default=settings.default_lesson)
    engine = LessonEngine(
        store, checker, catalog, clock, max_tries=settings.free_answer_max_tries,
        recall_plan=settings.recall_plan(),
        recall_window=timedelta(hours=settings.recall_open_hours),
    )
    freeze_startup_objects()
    lost_file = watching(sqlite_file(settings.database_url))
    try:
        async with running(prune_forever(store.prune_deliveries)), lost_file:
            yield Runtime(engine, store, checker, database)
    finally:
        await checker.close()
        await database.dispose()


def heartbeat(
    settings: Settings, runtime: Runtime, connected: Probe
) -> AbstractAsyncContextManager[None]:
    """While inside, keep HEALTH_FILE fresh as long as `connected()` and the database answer."""
    if settings.health_file is None:
        return contextlib.nullcontext()
    answers = partial(database_answers, runtime.database, settings.health_interval)
    return running(beat_forever(settings.health_file, settings.health_interval, connected, answers))


async def database_answers(database: AsyncEngine, timeout: float) -> bool:
    """Whether the database answers a trivial query within `timeout` seconds."""
    try:
        async with asyncio.timeout(timeout), database.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception as error:  # any failure means "not healthy"; the reason goes to the log
        log.warning("health check: the database did not answer (%s)", type(error).__name__)
        return False
    return True


def bot_checker(settings: Settings) -> Checker:
    """The answer checker as the bot runs it: bounded queue, turns, at most a few timeouts' wait."""
    return Checker(
        timeout=settings.checker_timeout,
        queue_limit=settings.checker_queue_limit,
        turn_seconds=settings.checker_turn,
        max_wait=MAX_WAIT_TIMEOUTS * settings.checker_timeout,
    )


def freeze_startup_objects() -> None:
    """Collect once, then exclude everything alive so far from later collections."""
    gc.collect()
    gc.freeze()
