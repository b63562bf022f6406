"""Real bot processes on one database: answers and timers shared, and a SIGKILL loses nothing,
not even results stored but never posted: the restarted process posts them once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine import parse_address
from bot.model import Phase, Place, Position
from fakes.fake_slack import TEAM_ID, Call, FakeSlack, block_texts, buttons
from fakes.slack_driver import (
    ALICE,
    BOT_TOKEN,
    CHANNEL,
    HOST,
    SIGNING_SECRET,
    TOTAL,
    SlackDriver,
    message_ts,
)
from fakes.slack_processes import BotProcess, bot_processes
from storage import SqlRunStore
from tests.due_now import timer_due_now

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""

TIMED = "CTIMED"
STEP = "what-changed"
RIGHT = "A new training stage"
BIGGER = "A bigger model"
TIMER_FIRES_WITHIN = 10.0
"""Seconds within which a bot's timer loop fires a timer that ended."""
ONCE_WINDOW = 2.5  # every process's timer loop ticks each second: a second fire would show


async def arm_timer(slack: SlackDriver) -> None:
    """Start a timed run in its own channel; its first step is posted. Its minute is long
    enough that only `timer_fired_once`, ending it, makes it fire."""
    assert await slack.command("start rlvr 60s", channel=TIMED) == 200
    await slack.wait_post(f"Step 1/{TOTAL}", channel=TIMED)


async def timer_fired_once(slack: SlackDriver, store: SqlRunStore) -> None:
    """The timed run, its timer ended now, moved to step 2 by itself, posted once, whatever
    the processes did."""
    timed = await store.find_active_run(Place("slack", TEAM_ID, TIMED))
    assert timed is not None
    await timer_due_now(store, timed.id)
    fired = f"Step 2/{TOTAL}"
    await slack.wait_post(fired, timeout=TIMER_FIRES_WITHIN, channel=TIMED)
    assert await slack.fake.holds_for(
        lambda _: len(slack.posts_in(TIMED, fired)) == 1, ONCE_WINDOW
    ), "the timer fired more than once"
    run = await store.find_active_run(Place("slack", TEAM_ID, TIMED))
    assert run is not None and run.position == Position(1, Phase.OPEN)


async def reach_question(slack: SlackDriver) -> tuple[Call, int]:
    """Start a run and move on to its first question: the question's message and the run."""
    await slack.start()
    question = await slack.go_to_step(2)
    return question, parse_address(slack.button(question, RIGHT)).run_id


def assert_no_secrets_logged(*bots: BotProcess) -> None:
    """The processes' own logs hold neither the bot token nor the signing secret."""
    for bot in bots:
        log = bot.log_text()
        assert "listening on" in log
        assert BOT_TOKEN not in log and SIGNING_SECRET not in log


async def test_an_answer_on_one_process_counts_in_a_reveal_on_another_and_timers_fire_once(
    fake_slack: FakeSlack, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    async with bot_processes(2, fake_slack, database_url, tmp_path) as running:
        (first_bot, first), (second_bot, second) = running
        await arm_timer(first)
        await first.start()
        question = await first.go_to_step(2)
        assert await first.click(first.button(question, RIGHT), ALICE, question) == 200
        await first.wait_ephemeral(ALICE, "You chose")
        assert await second.command("reveal") == 200
        reveal = await second.wait_post("Results: Same brain", channel=CHANNEL)
        text = block_texts(reveal.args["blocks"])
        assert "1 answered" in text and f"` 1 (100%) {RIGHT}" in text
        await timer_fired_once(first, store)
    assert_no_secrets_logged(first_bot, second_bot)


async def test_a_bot_killed_with_sigkill_loses_no_acked_answer_and_resumes(
    fake_slack: FakeSlack, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    async with bot_processes(1, fake_slack, database_url, tmp_path) as running:
        [(bot, slack)] = running
        question, run_id = await reach_question(slack)
        await arm_timer(slack)
        voters = [f"UVOTER{n:02d}" for n in range(20)]
        choice = slack.button(question, RIGHT)
        acks = await asyncio.gather(*(slack.click(choice, v, question) for v in voters))
        assert acks == [200] * len(voters)
        await bot.kill_hard()

        assert [(v.value, v.count) for v in await store.vote_counts(run_id, STEP)] == [
            ("checkable-reward", len(voters))
        ]
        run = await store.get_run(run_id)
        assert run is not None and run.position == Position(1, Phase.OPEN)

        await bot.start()
        await bot.wait_ready(slack.session)
        assert await slack.click(slack.button(question, BIGGER), ALICE, question) == 200
        await slack.wait_ephemeral(ALICE, "You chose *A bigger model")
        assert await store.member_votes(run_id, STEP, ALICE) == {"choice": "bigger-model"}
        await timer_fired_once(slack, store)
        assert await bot.terminate() == 0
    assert_no_secrets_logged(bot)
    assert bot.log_text().rstrip().endswith("Slack bot stopped")


def results_post(call: Call) -> bool:
    """Whether a Web API call posts the question's results."""
    return call.method == "chat.postMessage" and "Results: Same brain" in str(call.args["text"])


async def test_results_lost_to_a_kill_are_posted_once_with_their_chart_after_a_restart(
    fake_slack: FakeSlack, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    async with bot_processes(1, fake_slack, database_url, tmp_path) as running:
        [(bot, slack)] = running
        question, run_id = await reach_question(slack)
        for voter in ("UANN", "UBEN", "UCAT"):
            assert await slack.click(slack.button(question, RIGHT), voter, question) == 200
            await slack.wait_ephemeral(voter, "You chose")
        held = fake_slack.park(results_post)
        assert await slack.command("reveal") == 200
        await held.wait_arrived()
        run = await store.get_run(run_id)
        assert run is not None and run.position == Position(1, Phase.REVEALED)
        await bot.kill_hard()
        assert slack.posts_in(CHANNEL, "Results: ") == []

        await bot.start()
        await bot.wait_ready(slack.session)
        results = await slack.wait_post("Results: Same brain", timeout=30)
        assert "3 answered" in block_texts(results.args["blocks"])
        await fake_slack.wait_for(lambda _: fake_slack.shared_files(CHANNEL))
        (chart,) = fake_slack.shared_files(CHANNEL)
        assert chart.startswith(b"\x89PNG")
        assert len(slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")) == 1
        tally = await store.find_tally(run_id, STEP)
        assert tally is not None and tally.participants == 3

        posted = len(slack.posts())
        assert await slack.command("repost") == 200
        again = await slack.wait_post("Results: Same brain", after=posted)
        assert "3 answered" in block_texts(again.args["blocks"])
        await fake_slack.wait_for(lambda _: len(fake_slack.shared_files(CHANNEL)) == 2)
        assert len(slack.posts_in(CHANNEL, "Results: Same brain")) == 2
        assert len(slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")) == 1
        assert await slack.click(slack.button(again, "Next"), HOST, again) == 200
        await slack.wait_post(f"Step 3/{TOTAL}")
        await fake_slack.wait_for(
            lambda _: "Next" not in buttons(fake_slack.messages[message_ts(again)]["blocks"])
        )
