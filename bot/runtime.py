"""Wiring: database, migrations, checker and lessons into one ready `LessonEngine`.

While the runtime is open, old delivery claims are pruned (at start, then every hour), and a
SQLite database file is watched: if it vanishes or is replaced, the bot stops with
`DatabaseLost` rather than run on an empty file (`bot/database_watch.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.database_watch import watching
from bot.engine import LessonCatalog, LessonEngine
from bot.settings import Settings
from bot.startup_memory import freeze_startup_objects
from bot.upkeep import prune_forever, running
from bot.verifier import Checker
from storage import SqlRunStore, create_engine, sqlite_file, upgrade_database

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
    settings: Settings, catalog: LessonCatalog | None = None, migrate: bool = True
) -> AsyncIterator[Runtime]:
    """Migrate the database, start the checker, and yield the engine; clean up after."""
    if migrate:
        await upgrade_database(settings.database_url)
    database = create_engine(settings.database_url, create_file=False)
    checker = bot_checker(settings)
    await checker.start()
    store = SqlRunStore(database)
    catalog = catalog or LessonCatalog(default=settings.default_lesson)
    engine = LessonEngine(store, checker, catalog, max_tries=settings.free_answer_max_tries)
    freeze_startup_objects()
    lost_file = watching(sqlite_file(settings.database_url))
    try:
        async with running(prune_forever(store.prune_deliveries)), lost_file:
            yield Runtime(engine, store, checker, database)
    finally:
        await checker.close()
        await database.dispose()


def bot_checker(settings: Settings) -> Checker:
    """The answer checker as the bot runs it: bounded queue, turns, at most a few timeouts' wait."""
    return Checker(
        timeout=settings.checker_timeout,
        queue_limit=settings.checker_queue_limit,
        turn_seconds=settings.checker_turn,
        max_wait=MAX_WAIT_TIMEOUTS * settings.checker_timeout,
    )
