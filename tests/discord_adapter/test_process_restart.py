"""The bot process killed with SIGKILL mid-question and started again: nothing acknowledged
is lost, old buttons keep working, the pending timer fires once, in the new process, and
results stored but never posted are posted once at the restart."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.model import Phase
from fakes.discord_processes import BotProcess, start_bot_process
from fakes.fake_discord import CHANNEL_ID, TOKEN, Call, FakeDiscord, SentInteraction
from storage import SqlRunStore
from tests.discord_adapter.helpers import (
    LessonDriver,
    answers_of,
    button,
    buttons,
    run_of,
    step_id,
    title,
)
from tests.due_now import timer_due_now
from tests.waiting import wait_until

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""

TIMER = 60
"""The question's timer: long enough that only the test, ending it, makes it fire."""
STEP = "what-changed"
NAMES = [f"member-{n}" for n in range(100)]
Start = Callable[[str], Awaitable[BotProcess]]


def confirmed(fake: FakeDiscord, sent: dict[int, SentInteraction]) -> set[str]:
    """The members whose choice was confirmed to them privately."""
    replies = {member: fake.reply_to(one) for member, one in sent.items()}
    return {str(m) for m, reply in replies.items() if reply and "You chose" in reply.content}


@pytest.fixture
async def start_process(
    fake: FakeDiscord, database_url: str, tmp_path: Path
) -> AsyncIterator[Start]:
    """Start bot processes; every one still running is killed after the test."""
    started: list[BotProcess] = []

    async def start(name: str) -> BotProcess:
        started.append(await start_bot_process(fake, database_url, tmp_path, name))
        return started[-1]

    yield start
    for process in started:
        await process.kill()


async def test_a_killed_process_loses_nothing_and_its_timer_fires_once_after_a_restart(
    fake: FakeDiscord, store: SqlRunStore, start_process: Start
) -> None:
    first = await start_process("first")
    lesson = LessonDriver(fake, fake.host("hazel"))
    await lesson.start(timer=TIMER)
    question = await lesson.next_step()
    run_id = run_of(question)
    run = await store.get_run(run_id)
    assert run is not None and run.deadline is not None and run.timer_seconds == TIMER
    assert 0 < (run.deadline - datetime.now(UTC)).total_seconds() <= TIMER

    choice = button(question, arg="more-text")
    sent = {m.id: await fake.click(m, question, choice) for m in map(fake.member, NAMES)}
    await fake.wait_until(lambda: len(confirmed(fake, sent)) >= 10, what="ten confirmations")
    os.kill(first.pid, signal.SIGKILL)
    await first.process.wait()

    acknowledged = confirmed(fake, sent)
    stored = {a.user_id for a in await answers_of(store, run_id, "choice")}
    assert len(acknowledged) >= 10 and acknowledged <= stored
    after_kill = await store.get_run(run_id)
    assert after_kill is not None and after_kill.position == run.position
    assert after_kill.position.phase is Phase.OPEN

    second = await start_process("second")
    late = fake.member("late")
    joined = await lesson.press(late, question, button(question, arg="checkable-reward"))
    assert joined.ephemeral and "You chose" in joined.content
    assert str(late.id) in {a.user_id for a in await answers_of(store, run_id, "choice")}

    await timer_due_now(store, run_id)
    results = await fake.wait_until(
        lambda: [m for m in lesson.messages() if title(m).startswith("Results")],
        timeout=10,
        what="the timed reveal",
    )
    stopped = await lesson.command("stop")
    assert "Stopped" in stopped.content
    reveals = [m for m in lesson.messages() if title(m) == "Results: Same brain, a year later"]
    assert len(reveals) == 1 and results[0] is reveals[0]
    assert f"**{len(stored) + 1} answered**" in reveals[0]["embeds"][0]["description"]
    assert TOKEN not in first.log_text() + second.log_text()

    second.process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(second.process.wait(), timeout=20) == 0
    assert "SIGTERM received" in second.log_text()


def results_post(call: Call) -> bool:
    """Whether a request posts a question's results in the lesson's channel."""
    posts = call.method == "POST" and call.path == f"/channels/{CHANNEL_ID}/messages"
    embeds = call.body.get("embeds") or [] if posts and isinstance(call.body, dict) else []
    return any(str(embed.get("title", "")).startswith("Results") for embed in embeds)


def results_shown(lesson: LessonDriver) -> list[dict[str, Any]]:
    """The channel's results messages of the question, oldest first."""
    return [m for m in lesson.messages() if title(m) == "Results: Same brain, a year later"]


async def test_results_lost_to_a_kill_are_posted_once_with_their_chart_after_a_restart(
    fake: FakeDiscord, store: SqlRunStore, start_process: Start
) -> None:
    first = await start_process("first")
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach(STEP)
    run_id = run_of(question)
    for name in ("ann", "ben", "cat"):
        chosen = await lesson.press(fake.member(name), question, button(question, arg="more-text"))
        assert "You chose" in chosen.content
    held = fake.park(results_post)
    await fake.slash(lesson.host, "reveal")
    await held.wait_arrived()
    run = await store.get_run(run_id)
    assert run is not None and run.position.phase is Phase.REVEALED
    await first.kill()
    assert results_shown(lesson) == []

    await start_process("second")
    await fake.wait_until(lambda: results_shown(lesson), what="the results, posted again")
    (results,) = results_shown(lesson)
    assert "**3 answered**" in results["embeds"][0]["description"]
    assert results["embeds"][0]["image"]["url"] == "attachment://chart.png"
    assert [upload.filename for upload in fake.uploads[int(results["id"])]] == ["chart.png"]
    assert [step_id(m) for m in lesson.messages()].count(STEP) == 1
    tally = await store.find_tally(run_id, STEP)
    assert tally is not None and tally.participants == 3

    reposted = await lesson.command("repost")
    assert "Posted the current step again" in reposted.content
    again = results_shown(lesson)[-1]
    assert len(results_shown(lesson)) == 2 and lesson.messages()[-1] is again
    assert "**3 answered**" in again["embeds"][0]["description"]
    assert [step_id(m) for m in lesson.messages()].count(STEP) == 1
    moved = await lesson.press(lesson.host, again, button(again, action="next"))
    assert moved.content == "Moved on."
    assert all(b["disabled"] for b in buttons(again))


async def test_two_processes_starting_while_a_third_posts_leave_one_copy(
    fake: FakeDiscord, store: SqlRunStore, start_process: Start
) -> None:
    await start_process("first")
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach(STEP)
    held = fake.delay(results_post)
    revealing = await fake.slash(lesson.host, "reveal")
    await held.wait_arrived()

    others = await asyncio.gather(start_process("second"), start_process("third"))

    async def both_waiting() -> bool:
        return all("waiting for its turn" in other.log_text() for other in others)

    await wait_until(both_waiting, 20, "both new processes waiting for the run's turn")
    held.released.set()
    assert "Revealed" in (await fake.private_reply(revealing)).content

    async def both_caught_up() -> bool:
        return all("is caught up" in other.log_text() for other in others)

    await wait_until(both_caught_up, 20, "both processes to find the results posted")
    assert len(results_shown(lesson)) == 1
    assert [step_id(m) for m in lesson.messages()].count(step_id(question)) == 1


async def test_results_that_arrived_but_whose_answer_was_lost_are_not_posted_again(
    fake: FakeDiscord, store: SqlRunStore, start_process: Start
) -> None:
    first = await start_process("first")
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach(STEP)
    chosen = await lesson.press(fake.member("ann"), question, button(question, arg="more-text"))
    assert "You chose" in chosen.content
    lost = fake.lose_answer(results_post)
    await fake.slash(lesson.host, "reveal")
    await lost.wait_arrived()
    (results,) = results_shown(lesson)  # it arrived; the bot never learned its id
    await first.kill()

    second = await start_process("second")

    async def caught_up() -> bool:
        return "is caught up" in second.log_text()

    await wait_until(caught_up, 20, "the restarted process to catch the run up")
    assert results_shown(lesson) == [results]
    run_id = run_of(question)
    kept = await store.find_message(run_id, STEP + "+results")
    assert kept == f"discord:{CHANNEL_ID}:{results['id']}"
    moved = await lesson.press(lesson.host, results, button(results, action="next"))
    assert moved.content == "Moved on."
    assert all(b["disabled"] for b in buttons(results) if ":next" in b["custom_id"])
    assert results_shown(lesson) == [results]
