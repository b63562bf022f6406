"""Assigned lessons with the bot in a process of its own: progress lives in the database only.

A member whose bot was killed mid-lesson presses Start again and is back at their step with
their answer kept; a due time that passed while the bot was down closes the run once when a
new process starts; two processes on one server database close a due run once between them;
a bot killed while sending the reminders leaves each member to get exactly one after restart.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service.assignments import CLOSE_PATIENCE
from lessons.schema import PredictionStep
from storage import SqlRunStore
from tests.conftest import SERVER_URL
from tests.due_now import set_run_times
from tests.platforms.conftest import DUE_CHECK_SECONDS
from tests.platforms.driver import LESSON, Person, Platform
from tests.platforms.test_assigned import answer, assign, onward, reminders, start
from tests.platforms.views import Post

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("quick_due_checks")]
"""Waits on bot processes for seconds at a time: spread through the run. The processes look
for due work each `DUE_CHECK_SECONDS`."""

QUESTION = "what-changed"
CLOSED_RESULTS = "Assigned lesson, closed:"
"""The results' first line once an assignment closed."""
ELSEWHERE = "another-machine:1:0:1"
"""A turn holder on no machine of the test's: only its lease lapsing frees the turn."""
TEND_SECONDS = DUE_CHECK_SECONDS
HELD_FOR = TEND_SECONDS + 1.0
"""Seconds that holder keeps the turn: longer than the time between two tendings of the
assignments, so each process finds the run due while its turn is held, and waits for it."""
WAITING = "is posting in another process; waiting for its turn"
ONCE_WINDOW = TEND_SECONDS + CLOSE_PATIENCE + 1.0
"""Seconds within which a process that waited for the turn to close a run has tried it."""


def folder(tmp_path: Path, name: str) -> Path:
    """A folder of its own for one bot process (its working directory and log)."""
    made = tmp_path / name
    made.mkdir()
    return made


async def make_due(store: SqlRunStore, run_id: int) -> None:
    """Move the run's due time an hour into the past, as if that time had passed."""
    await set_run_times(store, run_id, due_at=datetime.now(UTC) - timedelta(hours=1))


async def make_remind_now(store: SqlRunStore, run_id: int) -> None:
    """Bring the run's reminder time to now, after every member so far started."""
    await set_run_times(store, run_id, remind_at=datetime.now(UTC))


async def make_due_while_held_elsewhere(store: SqlRunStore, run_id: int, seconds: float) -> None:
    """Make the run due while a process on another machine holds its turn for `seconds`.

    Every process that finds the run due then waits for that turn, so they all try to close
    it at about the same time once the lease lapses.
    """
    now = datetime.now(UTC)
    held = {"post_holder": ELSEWHERE, "post_until": now + timedelta(seconds=seconds)}
    await set_run_times(store, run_id, due_at=now - timedelta(hours=1), **held)


def results_posts(lesson: Platform) -> list[Post]:
    """The channel's posts of an assignment's results."""
    return [post for post in lesson.posts() if CLOSED_RESULTS in post.text]


async def closed_once(lesson: Platform, card: Post, started: int) -> None:
    """The results come once, the card shows closed, and a late Start is told it is closed."""
    start_address = card.button("Start")
    results = await lesson.post_after(1, CLOSED_RESULTS, timeout=30.0)
    assert f"{CLOSED_RESULTS} {started} started · 0 answered · 0 finished" in results.text
    progress = await lesson.ask("progress")
    assert f"{started} started · 0 finished" in progress.text
    closed_card = await lesson.wait(
        lambda: next((p for p in lesson.posts()[:1] if "Closed." in p.text), None),
        what="the card closed",
    )
    assert not any(button.enabled for button in closed_card.buttons if "Start" in button.label)
    late = await lesson.press(lesson.member("Lior"), card, start_address)
    assert late.private and "closed" in late.text
    assert [post.text for post in results_posts(lesson)] == [results.text]


async def no_second_results(lesson: Platform, window: float) -> None:
    """No second results post within `window` seconds."""
    with contextlib.suppress(AssertionError):
        await lesson.wait(lambda: len(results_posts(lesson)) > 1, window, "a second results post")
    assert len(results_posts(lesson)) == 1, "the results were posted more than once"


async def test_a_member_whose_bot_was_killed_is_back_at_their_step_with_their_answer(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    ines, jonah = platform.member("Ines"), platform.member("Jonah")
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        card = await assign(platform)
        post = await start(platform, ines, card)
        while post.step != QUESTION:
            post = await onward(platform, ines, post)
        chosen = await answer(platform, ines, post)
        assert "(1 answered)" in chosen.text, chosen.text
        left_at = await onward(platform, ines, post)
        await bot.crash()

    run_id, at = card.run, LESSON.steps.index(LESSON.step_by_id(QUESTION)) + 1
    assert left_at.step == LESSON.steps[at].id
    async with platform.process(database_url, folder(tmp_path, "second")):
        back = await start(platform, ines, card)
        assert back.step == left_at.step and f"Step {at + 1}" in back.text, back.text
        later = await onward(platform, ines, back)
        assert later.step == LESSON.steps[at + 1].id

        question = await onward(platform, jonah, await start(platform, jonah, card))
        assert question.step == QUESTION
        counted = await answer(platform, jonah, question)
        assert "(2 answered)" in counted.text, counted.text  # Ines's answer, once, and his

    question_step = LESSON.step_by_id(QUESTION)
    assert isinstance(question_step, PredictionStep)
    chose = {"choice": question_step.choices[1].id}  # what `answer` presses
    assert await store.member_votes(run_id, QUESTION, ines.id) == chose
    votes = await store.vote_counts(run_id, QUESTION)
    assert sum(vote.count for vote in votes) == 2
    progress = await store.pass_progress(run_id)
    assert progress.started == 2 and progress.finished == 0


async def test_a_due_time_passed_while_the_bot_was_down_closes_the_run_once_at_restart(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    ines = platform.member("Ines")
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        card = await assign(platform)
        await start(platform, ines, card)
        assert await bot.terminate() == 0

    await make_due(store, card.run)
    assert results_posts(platform) == []
    async with platform.process(database_url, folder(tmp_path, "second")):
        await closed_once(platform, card, started=1)


@pytest.mark.skipif(not SERVER_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
async def test_two_processes_on_one_server_database_close_a_due_assignment_once(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    ines = platform.member("Ines")
    async with (
        platform.process(database_url, folder(tmp_path, "first")) as first,
        platform.process(database_url, folder(tmp_path, "second")) as second,
    ):
        card = await assign(platform)
        await start(platform, ines, card)
        await make_due_while_held_elsewhere(store, card.run, HELD_FOR)
        await closed_once(platform, card, started=1)
        assert WAITING in first.log_text() and WAITING in second.log_text()  # both tried
        await no_second_results(platform, ONCE_WINDOW)  # the other's try ends by then


async def test_a_bot_killed_while_reminding_leaves_each_member_exactly_one_reminder(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    members = [platform.member(name) for name in ("Ines", "Jonah", "Kirra", "Lior", "Mara")]
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        await platform.command("assign", options={"due": "3d", "remind": "1d"})
        card = await platform.wait(lambda: next(iter(platform.posts()), None), what="the card")
        for member in members:
            await start(platform, member, card)
        held = platform.hold_direct_message(members[2], "Reminder")  # the third reminded
        await make_remind_now(store, card.run)
        await held.wait_arrived(timeout=30.0)
        assert [len(reminders(platform, member)) for member in members[:2]] == [1, 1]
        await bot.crash()

    async with platform.process(database_url, folder(tmp_path, "second")):
        await platform.wait(
            lambda: all(reminders(platform, member) for member in members),
            timeout=30.0,
            what="a reminder to every member",
        )
        await no_second_reminder(platform, members, TEND_SECONDS + 1.0)
    run = await store.get_run(card.run)
    assert run is not None and run.reminded_at is not None  # done: no member is owed one


async def no_second_reminder(lesson: Platform, members: list[Person], window: float) -> None:
    """No member gets a second reminder within `window` seconds (a round or more)."""
    def twice() -> bool:
        return any(len(reminders(lesson, member)) > 1 for member in members)

    with contextlib.suppress(AssertionError):
        await lesson.wait(twice, window, "a second reminder")
    assert [len(reminders(lesson, member)) for member in members] == [1] * len(members)
