"""Recall checks with the bot in a process of its own: due times live in the database only.

A bot killed (SIGKILL) while sending a run's recall checks, one of them unanswered by the
platform, leaves every member who answered with exactly one check once a new process starts;
two processes on one server database send each member's check once between them.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from storage import SqlRunStore
from storage.models import RecallCheckRow, RunRow
from tests.conftest import SERVER_URL
from tests.platforms.conftest import DUE_CHECK_SECONDS
from tests.platforms.driver import Person, Platform
from tests.platforms.test_assigned_processes import folder

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quick_due_checks")]
"""Waits on bot processes for seconds at a time: spread through the run. The processes look
for due work each `DUE_CHECK_SECONDS`."""

CHECK = "Recall check"
QUESTION = "what-changed"
ROUND = DUE_CHECK_SECONDS + 1.0
"""Seconds within which a running bot has tended its recall checks at least once more."""


def checks(lesson: Platform, member: Person) -> int:
    """How many recall checks the member got in their direct messages."""
    return sum(CHECK in post.text for post in lesson.direct_posts(member))


async def answered_then_stopped(lesson: Platform, members: list[Person]) -> int:
    """A run with a one-hour recall: the members answer its first question, the host stops it."""
    await lesson.command("start", options={"recall": "1h"})
    post = await lesson.wait(lambda: next(iter(lesson.posts()), None), what="the first step")
    post = await lesson.reach_from(post, QUESTION)
    run_id = post.run
    for member in members:
        reply = await lesson.press(member, post, post.button(action="choose", arg="more-text"))
        assert reply.private, reply
    await lesson.command("stop")
    await lesson.wait(lambda: any("Stopped early" in p.text for p in lesson.posts()),
                      what="the results")
    return run_id


async def make_checks_due(store: SqlRunStore, run_id: int, members: int) -> None:
    """Move the run's end two hours back, as if that time had passed, and with it the checks
    of its `members`, once a bot has planned them (within a deadline)."""
    deadline = asyncio.get_running_loop().time() + 30.0
    while await _moved_back(store, run_id) < members:
        assert asyncio.get_running_loop().time() < deadline, "the checks were never planned"
        await asyncio.sleep(0.2)


async def _moved_back(store: SqlRunStore, run_id: int) -> int:
    """Move the run's end and its planned checks two hours back; how many checks there are."""
    ended = datetime.now(UTC) - timedelta(hours=2)
    due = ended + timedelta(hours=1)
    async with store.database.begin() as connection:
        await connection.execute(update(RunRow).where(RunRow.id == run_id).values(ended_at=ended))
        await connection.execute(
            update(RecallCheckRow)
            .where(RecallCheckRow.run_id == run_id, RecallCheckRow.due_at > due)
            .values(due_at=due, closes_at=due + timedelta(days=2))
        )
        planned = (
            select(func.count()).select_from(RecallCheckRow)
            .where(RecallCheckRow.run_id == run_id)
        )
        return int((await connection.execute(planned)).scalar_one())


async def one_each(lesson: Platform, members: list[Person]) -> None:
    """Every member gets a check, and within a round more no one gets a second."""
    await lesson.wait(lambda: all(checks(lesson, m) for m in members), timeout=30.0,
                      what="a recall check for every member")
    with contextlib.suppress(AssertionError):
        await lesson.wait(lambda: any(checks(lesson, m) > 1 for m in members), ROUND,
                          "a second check")
    assert [checks(lesson, member) for member in members] == [1] * len(members)


async def test_a_bot_killed_while_sending_checks_leaves_each_member_exactly_one(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    members = [platform.member(name) for name in ("Ines", "Jonah", "Kirra", "Lior", "Mara")]
    watcher = platform.member("Nora")
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        run_id = await answered_then_stopped(platform, members)
        held = platform.hold_direct_message(members[2], "")  # its check gets no answer
        await make_checks_due(store, run_id, len(members))
        await held.wait_arrived(timeout=30.0)
        assert checks(platform, members[2]) == 0
        await bot.crash()

    async with platform.process(database_url, folder(tmp_path, "second")):
        await one_each(platform, members)
    assert checks(platform, watcher) == 0  # answered nothing, so asked nothing


@pytest.mark.skipif(not SERVER_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
async def test_two_processes_on_one_server_database_send_each_check_once(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    members = [platform.member(name) for name in ("Ines", "Jonah", "Kirra", "Lior", "Mara")]
    async with (
        platform.process(database_url, folder(tmp_path, "first")),
        platform.process(database_url, folder(tmp_path, "second")),
    ):
        run_id = await answered_then_stopped(platform, members)
        await make_checks_due(store, run_id, len(members))
        await one_each(platform, members)
