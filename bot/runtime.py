"""Wiring: database, migrations, checker and lessons into one ready `LessonEngine`.

While the runtime is open, old delivery claims are pruned (at start, then every hour), and a
SQLite database file is watched: if it vanishes or is replaced, the bot stops with
`DatabaseLost` rather than run on an empty file (`bot/database_watch.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.database_watch import DatabaseWatch
from bot.engine import LessonCatalog, LessonEngine
from bot.settings import Settings
from bot.startup_memory import freeze_startup_objects
from bot.upkeep import prune_forever
from bot.verifier import Checker
from storage import SqlRunStore, create_engine, sqlite_file, upgrade_database


@dataclass
class Runtime:
    """The running parts a platform adapter works with."""

    engine: LessonEngine
    store: SqlRunStore
    checker: Checker
    database: AsyncEngine


@asynccontextmanager
async def open_runtime(
    settings: Settings, catalog: LessonCatalog | None = None, migrate: bool = True
) -> AsyncIterator[Runtime]:
    """Migrate the database, start the checker, and yield the engine; clean up after."""
    if migrate:
        await upgrade_database(settings.database_url)
    database = create_engine(settings.database_url, create_file=False)
    path = sqlite_file(settings.database_url)
    watch = DatabaseWatch.of_current_task(path) if path is not None else None
    checker = Checker(timeout=settings.checker_timeout)
    await checker.start()
    store = SqlRunStore(database)
    catalog = catalog or LessonCatalog(default=settings.default_lesson)
    engine = LessonEngine(store, checker, catalog)
    freeze_startup_objects()
    chores = [prune_forever(store.prune_deliveries)] + ([watch.run()] if watch else [])
    try:
        async with running(*chores):
            yield Runtime(engine, store, checker, database)
    except BaseException as error:
        lost = watch.reason_to_stop(error) if watch is not None else None
        if lost is None:
            raise
        raise lost from None
    finally:
        await checker.close()
        await database.dispose()


@asynccontextmanager
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
