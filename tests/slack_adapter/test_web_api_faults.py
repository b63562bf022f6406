"""The Web API failing: 429s and 500s are retried, nothing stored is lost, the bot goes on."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.model import Place
from bot.slack_adapter import SlackBot
from bot.slack_adapter.surface import CONNECTION_ERROR_RETRIES, SERVER_ERROR_RETRIES
from bot.verifier import Checker
from fakes.fake_slack import DROP, TEAM_ID, FakeSlack, block_texts, buttons, dm_channel
from fakes.slack_driver import ALICE, BOB, CHANNEL, HOST, TOTAL, SlackDriver, message_ts
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.slack_adapter.conftest import bot_for
from tests.waiting import wait_until

PLACE = Place("slack", TEAM_ID, CHANNEL)
RIGHT = "A new training stage"


def statuses(slack: SlackDriver, method: str) -> list[int]:
    """The HTTP status the fake gave each call of `method`, in order."""
    return [c.status for c in slack.fake.calls_to(method, ok_only=False)]


async def test_a_server_error_on_posting_the_next_step_is_retried(slack: SlackDriver) -> None:
    await slack.start()
    slack.fake.fail_next("chat.postMessage", times=1, status=500, error="internal_error")
    assert await slack.command("next") == 200
    await slack.wait_post(f"Step 2/{TOTAL}")
    assert statuses(slack, "chat.postMessage")[-2:] == [500, 200]


async def test_a_rate_limited_counter_still_ends_on_the_final_count(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    ts = message_ts(question)
    slack.fake.fail_next("chat.update", times=2, status=429, retry_after=0)
    for voter in (ALICE, BOB, "UCAROL"):
        assert await slack.click(slack.button(question, RIGHT), voter, question) == 200

    def counter_shows_three(_: object) -> bool:
        return "3 answered" in block_texts(slack.fake.messages[ts]["blocks"])

    await slack.fake.wait_for(counter_shows_three, timeout=10)
    assert statuses(slack, "chat.update").count(429) == 2
    run = await engine.run_in(PLACE)
    assert [(v.value, v.count) for v in await store.vote_counts(run.id, "what-changed")] == [
        ("checkable-reward", 3)
    ]


async def test_exhausted_retries_are_logged_and_the_results_posted_once_slack_answers(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore, caplog: pytest.LogCaptureFixture
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.wait_ephemeral(ALICE, "You chose")
    attempts = 1 + SERVER_ERROR_RETRIES
    slack.fake.fail_next("chat.postMessage", times=attempts, status=500, error="internal_error")
    posted = len(slack.posts())
    assert await slack.command("reveal") == 200

    async def failure_logged() -> bool:
        return "chat.postMessage failed: internal_error" in caplog.text

    await wait_until(failure_logged, timeout=10, what="the failed post to be logged")
    assert statuses(slack, "chat.postMessage")[posted : posted + attempts] == [500] * attempts
    await slack.wait_ephemeral(HOST, "(internal_error). The bot keeps trying")
    await slack.wait_post("Results: Same brain", after=posted)
    assert await slack.command("next") == 200
    step = await slack.wait_post(f"Step 3/{TOTAL}")
    (results,) = slack.posts_in(CHANNEL, "Results: Same brain")
    assert slack.posts().index(results) < slack.posts().index(step)
    assert "1 answered" in block_texts(results.args["blocks"])
    assert "Next" not in buttons(slack.fake.messages[message_ts(results)]["blocks"])
    run = await engine.run_in(PLACE)
    assert await store.member_votes(run.id, "what-changed", ALICE) == {"choice": "checkable-reward"}
    tally = await store.find_tally(run.id, "what-changed")
    assert tally is not None and tally.participants == 1


async def test_results_refused_by_slack_are_posted_once_by_a_repost(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.wait_ephemeral(ALICE, "You chose")
    charts = len(slack.fake.shared_files(CHANNEL))
    slack.fake.fail_next("chat.postMessage", status=200, error="not_in_channel")
    assert await slack.command("reveal") == 200
    await slack.wait_ephemeral(HOST, "`/lesson repost` posts it")
    assert slack.posts_in(CHANNEL, "Results: ") == []

    posted = len(slack.posts())
    assert await slack.command("repost") == 200
    results = await slack.wait_post("Results: Same brain", after=posted)
    assert "1 answered" in block_texts(results.args["blocks"])
    await slack.fake.wait_for(lambda _: len(slack.fake.shared_files(CHANNEL)) > charts)
    assert slack.fake.shared_files(CHANNEL)[-1].startswith(b"\x89PNG")
    assert len(slack.posts_in(CHANNEL, "Results: ")) == 1
    assert len(slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")) == 1
    run = await engine.run_in(PLACE)
    tally = await store.find_tally(run.id, "what-changed")
    assert tally is not None and tally.participants == 1


async def test_refused_results_are_posted_once_when_two_processes_start(
    slack: SlackDriver,
    slack_bot: SlackBot,
    database_url: str,
    checker: Checker,
    clock: FakeClock,
    fake_slack: FakeSlack,
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.wait_ephemeral(ALICE, "You chose")
    slack.fake.fail_next("chat.postMessage", status=200, error="not_in_channel")
    assert await slack.command("reveal") == 200
    await slack.wait_ephemeral(HOST, "`/lesson repost` posts it")

    database = open_database(database_url)
    engine = LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)
    other = bot_for(engine, checker, fake_slack)
    try:
        async with other.connected():
            await asyncio.gather(
                slack_bot.presenter.catch_up("slack"), other.presenter.catch_up("slack")
            )
    finally:
        await database.dispose()
    (results,) = slack.posts_in(CHANNEL, "Results: Same brain")
    assert "1 answered" in block_texts(results.args["blocks"])
    assert "Next" in buttons(slack.fake.messages[message_ts(results)]["blocks"])
    assert len(slack.posts_in(CHANNEL, f"Step 2/{TOTAL}")) == 1


@pytest.mark.parametrize("failure", [503, DROP], ids=["server-error", "no-connection"])
async def test_start_while_slack_does_not_answer_says_so_and_start_again_works(
    slack: SlackDriver, failure: int
) -> None:
    assert await slack.command("assign due:3d") == 200
    card = await slack.wait_post("Assignment", channel=CHANNEL)
    start = slack.button(card, "Start")
    every_try = max(SERVER_ERROR_RETRIES, CONNECTION_ERROR_RETRIES) + 1
    slack.fake.fail_next("conversations.open", every_try, failure, error="service_unavailable")
    assert await slack.click(start, ALICE, card) == 200
    await slack.wait_ephemeral(ALICE, "Slack did not answer")
    assert slack.ephemerals(ALICE, "could not send you") == []
    assert slack.fake.direct_messages(ALICE) == []

    assert await slack.click(start, ALICE, card) == 200  # Slack answers again
    await slack.wait_ephemeral(ALICE, "Your lesson is in your direct messages")
    (first,) = slack.fake.direct_messages(ALICE)
    assert f"Step 1/{TOTAL}" in block_texts(first.args["blocks"])

    slack.fake.fail_next("chat.postMessage", every_try, failure, error="service_unavailable")
    onward = slack.action(first, ":onward")
    assert await slack.click(onward, ALICE, first, channel=dm_channel(ALICE)) == 200
    await slack.fake.wait_for(lambda _: len(slack.ephemerals(ALICE, "Slack did not answer")) == 2)
    assert slack.ephemerals(ALICE, "could not send you") == []
    assert await slack.click(start, ALICE, card) == 200  # as told: Start brings her step
    await slack.fake.wait_for(lambda _: len(slack.fake.direct_messages(ALICE)) == 2)
    assert f"Step 2/{TOTAL}" in block_texts(slack.fake.direct_messages(ALICE)[1].args["blocks"])


async def test_start_refused_by_slack_says_the_member_cannot_be_messaged(
    slack: SlackDriver,
) -> None:
    assert await slack.command("assign due:3d") == 200
    card = await slack.wait_post("Assignment", channel=CHANNEL)
    slack.fake.closed_dms.add(BOB)  # direct messages from apps turned off
    assert await slack.click(slack.button(card, "Start"), BOB, card) == 200
    await slack.wait_ephemeral(BOB, "I could not send you a direct message")
    assert slack.ephemerals(BOB, "Slack did not answer") == []
