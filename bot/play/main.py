"""Starting play mode: load the lesson, open the runtime, play, report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.engine import LessonCatalog
from bot.i18n import _, speaking
from bot.model import LessonBotError
from bot.play.assigned import AssignedPlaySession
from bot.play.console import Console
from bot.play.later import ShiftedClock, preview_after, take_recall
from bot.play.session import PlayOptions, PlaySession
from bot.process.database_watch import DATABASE_LOST_STATUS, DatabaseLost
from bot.process.runtime import open_runtime
from bot.settings import Settings
from lessons.loader import LessonError, load_lesson_file


def catalog_for(lesson: str | None, default: str) -> tuple[LessonCatalog, str | None]:
    """A catalog holding the lesson asked for, which may be a file path."""
    catalog = LessonCatalog(default=default)
    if lesson and (lesson.endswith((".yaml", ".yml")) or Path(lesson).is_file()):
        loaded = load_lesson_file(lesson)
        catalog.add(loaded)
        return catalog, loaded.id
    catalog.get(lesson)
    return catalog, lesson


async def play_lesson(settings: Settings, options: PlayOptions) -> int:
    """Play a lesson in this terminal; exit status 0, 2 for a bad lesson, 3 for a lost database.

    Play speaks the language asked for (`--lang`), the lesson's and its own words alike, from
    its first line to its last.
    """
    with speaking(options.language):
        return await _played(settings, options, Console())


async def _played(settings: Settings, options: PlayOptions, console: Console) -> int:
    """Play the lesson in the language already set; the exit status."""
    try:
        catalog, lesson_id = catalog_for(options.lesson_id, settings.default_lesson)
    except (LessonError, LessonBotError) as error:
        console.show(_("Cannot play: {error}", error=error))
        return 2
    try:
        clock = ShiftedClock()
        async with open_runtime(settings, catalog, clock=clock) as runtime:
            if options.recall:
                run_id = await take_recall(runtime.engine, console, options, clock)
            else:
                kind = AssignedPlaySession if options.assigned else PlaySession
                session = kind(runtime.engine, console, replace(options, lesson_id=lesson_id))
                await play_session(session)
                run_id = session.surface.run_id
    except DatabaseLost:
        console.show(
            _("The lesson stopped: its database file is gone (see the message above).")
        )
        return DATABASE_LOST_STATUS
    if run_id is not None:
        console.show("\n" + stored_line(settings.database_url, run_id))
    return 0


async def play_session(session: PlaySession) -> None:
    """Play the lesson, then preview its delayed recall (`play --recall` takes it later)."""
    await session.run()
    await preview_after(session)


def stored_line(database_url: str, run_id: int) -> str:
    """Where the run was stored and how to export it: the SQLite file, or the URL unsecret."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        where = str(Path(url.database).resolve())
    else:
        where = url.render_as_string(hide_password=True)
    return _(
        "Stored as run {run} in {where}. Its answers as CSV: lessonbot export --run {run}",
        run=run_id, where=where,
    )
