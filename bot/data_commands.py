"""Operator commands on stored data: export a run as CSV, forget a member."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import click

from bot.engine import AskedAgain, LessonCatalog, LessonEngine, forget_counts, recalled_steps
from bot.i18n import _
from bot.model import UnknownLesson
from bot.verifier import Checker
from storage import SqlRunStore, open_database, upgrade_database


async def export_command(database_url: str, run_id: int, output: Path | None) -> int:
    """Write a run's answers as CSV to a file or stdout; exit 0, or 2 if there is no such run."""
    await upgrade_database(database_url)
    database = open_database(database_url)
    try:
        store = SqlRunStore(database)
        run = await store.get_run(run_id)
        if run is None:
            click.echo(_("There is no run {run} in this database.", run=run_id), err=True)
            return 2
        engine = LessonEngine(store, Checker())  # its checker is never started here
        text = await engine.member_data.run_csv(run, _recalls_of(run.lesson_id))
    finally:
        await database.dispose()
    if output is None:
        click.echo(shown_on_terminal(text) if sys.stdout.isatty() else text, nl=False)
    else:
        await asyncio.to_thread(output.write_text, text, encoding="utf-8")
    return 0


TERMINAL_CONTROLS = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
"""Characters a terminal acts on rather than shows: escapes, carriage returns, direction marks."""


def shown_on_terminal(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`), lines and tabs kept.

    Members' answers and reasons are theirs to write: on an operator's terminal they could
    otherwise move the cursor, rewrite the title, or hide what comes after them.
    """
    return TERMINAL_CONTROLS.sub(lambda match: ascii(match.group(0))[1:-1], text)


def _recalls_of(lesson_id: str) -> AskedAgain:
    """What a shipped lesson asks again (nothing when the lesson is not shipped)."""
    try:
        return recalled_steps(LessonCatalog().get(lesson_id))
    except UnknownLesson:
        return AskedAgain()


async def forget_command(
    database_url: str, platform: str, workspace: str, user_id: str, confirm: bool = False
) -> int:
    """Say what forgetting a member in a workspace would remove; with `confirm`, do it; exit 0."""
    await upgrade_database(database_url)
    database = open_database(database_url)
    try:
        store = SqlRunStore(database)
        report = await store.forget_member(platform, workspace, user_id, dry_run=not confirm)
    finally:
        await database.dispose()
    who = _("{platform} user {user} in {workspace}", platform=platform, user=user_id,
            workspace=workspace)
    if confirm:
        click.echo(_("Forgot {who}: {counts}.", who=who, counts=forget_counts(report)))
    else:
        counts = forget_counts(report, "would remove", "would blank")
        click.echo(_("Nothing deleted yet. Forgetting {who} {counts}. Add --confirm to delete.",
                     who=who, counts=counts))
    return 0
