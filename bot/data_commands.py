"""Operator commands on stored data: export a run as CSV, forget a member."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from bot.engine import LessonCatalog, UnknownLesson, answers_csv, forget_counts, recalled_steps
from storage import SqlRunStore, create_engine, upgrade_database


async def export_command(database_url: str, run_id: int, output: Path | None) -> int:
    """Write a run's answers as CSV to a file or stdout; exit 0, or 2 if there is no such run."""
    await upgrade_database(database_url)
    database = create_engine(database_url)
    try:
        store = SqlRunStore(database)
        run = await store.get_run(run_id)
        if run is None:
            click.echo(f"There is no run {run_id} in this database.", err=True)
            return 2
        answers = await store.export_answers(run_id)
        text = answers_csv(run_id, answers, _recalls_of(run.lesson_id))
    finally:
        await database.dispose()
    if output is None:
        click.echo(text, nl=False)
    else:
        await asyncio.to_thread(output.write_text, text, encoding="utf-8")
    return 0


def _recalls_of(lesson_id: str) -> dict[str, str]:
    """The recall steps of a shipped lesson (none when the lesson is not shipped)."""
    try:
        return recalled_steps(LessonCatalog().get(lesson_id))
    except UnknownLesson:
        return {}


async def forget_command(database_url: str, platform: str, workspace: str, user_id: str) -> int:
    """Remove or blank everything naming a member in a workspace; say what went; exit 0."""
    await upgrade_database(database_url)
    database = create_engine(database_url)
    try:
        report = await SqlRunStore(database).forget_member(platform, workspace, user_id)
    finally:
        await database.dispose()
    click.echo(f"Forgot {platform} user {user_id} in {workspace}: {forget_counts(report)}.")
    return 0
