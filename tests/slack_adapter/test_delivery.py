"""Delivery: signatures, Slack retries counted once, 429s retried, failures never lose answers."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import func, select

from bot.engine import LessonEngine
from bot.model import Place
from fakes.fake_slack import RESPOND, TEAM_ID, block_texts
from fakes.slack_driver import (
    ACK_DEADLINE,
    ALICE,
    CHANNEL,
    SlackDriver,
    message_ts,
    new_trigger,
    step_number,
)
from storage import SqlRunStore
from storage.models import CheckerRunRow
from tests.slack_adapter.lesson_walk import rate_every_attempt

PLACE = Place("slack", TEAM_ID, CHANNEL)
RIGHT = "A new training stage"


async def checker_runs(store: SqlRunStore, run_id: int) -> int:
    """How many checker runs the database holds for a run."""
    query = select(func.count()).select_from(CheckerRunRow).where(CheckerRunRow.run_id == run_id)
    async with store.sessions() as session:
        return int((await session.execute(query)).scalar_one())


async def test_a_bad_signature_is_rejected(slack: SlackDriver) -> None:
    assert await slack.command("start", secret="not-the-secret") == 401
    assert slack.fake.calls == []


async def test_a_stale_timestamp_is_rejected(slack: SlackDriver) -> None:
    assert await slack.command("start", timestamp=int(time.time()) - 600) == 401
    assert slack.fake.calls == []


async def test_a_retried_checker_click_is_counted_once(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("be-the-checker"))
    await rate_every_attempt(slack, card, ALICE)
    check, trigger = slack.action(card, ":check:polished"), new_trigger()
    assert await slack.click(check, ALICE, card, trigger_id=trigger) == 200
    assert await slack.click(check, ALICE, card, trigger_id=trigger, retry=1) == 200
    await slack.wait_ephemeral(ALICE, "Checker on")
    assert len(slack.ephemerals(ALICE, "Checker on")) == 1
    run = await engine.run_in(PLACE)
    assert await checker_runs(store, run.id) == 1


async def test_a_retry_that_reaches_another_process_is_counted_once(
    slack: SlackDriver, second_slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("be-the-checker"))
    await rate_every_attempt(slack, card, ALICE)
    check, trigger = slack.action(card, ":check:polished"), new_trigger()
    assert await slack.click(check, ALICE, card, trigger_id=trigger) == 200
    assert await second_slack.click(check, ALICE, card, trigger_id=trigger, retry=1) == 200
    await slack.wait_ephemeral(ALICE, "Checker on")
    run = await engine.run_in(PLACE)
    assert await checker_runs(store, run.id) == 1
    assert await second_slack.click(check, ALICE, card, retry=1) == 200
    await slack.fake.wait_for(lambda _: len(slack.ephemerals(ALICE, "Checker on")) == 2)
    assert await checker_runs(store, run.id) == 1  # answered again, stored once


async def test_a_retried_submission_on_another_process_is_one_try(
    slack: SlackDriver, second_slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("your-turn"))
    view = await slack.open_answer_form(card)
    trigger = new_trigger()
    assert await second_slack.submit(view, "2/3", ALICE, trigger_id=trigger, retry=2) == 200
    assert await slack.submit(view, "2/3", ALICE, trigger_id=trigger) == 200
    await slack.wait_ephemeral(ALICE, "Try 1:")
    run = await engine.run_in(PLACE)
    stats = await store.free_answer_stats(run.id, "your-turn")
    assert (stats.members, stats.attempts) == (1, 1)
    assert slack.ephemerals(ALICE, "Try 2:") == []


async def test_a_retried_answer_submission_is_one_try(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("your-turn"))
    view = await slack.open_answer_form(card)
    trigger = new_trigger()
    assert await slack.submit(view, "2/3", ALICE, trigger_id=trigger) == 200
    assert await slack.submit(view, "2/3", ALICE, trigger_id=trigger, retry=1) == 200
    await slack.wait_ephemeral(ALICE, "Try 1:")
    assert await slack.submit(view, "3/4", ALICE, retry=1) == 200
    await slack.wait_ephemeral(ALICE, "Try 2:")
    run = await engine.run_in(PLACE)
    stats = await store.free_answer_stats(run.id, "your-turn")
    assert (stats.attempts, stats.solved) == (2, 1)
    assert slack.ephemerals(ALICE, "Try 3:") == []


async def test_a_rate_limited_update_is_retried_and_the_answer_kept(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    ts = message_ts(question)
    slack.fake.fail_next("chat.update", times=1, status=429, retry_after=0)
    await slack.click(slack.button(question, RIGHT), ALICE, question)

    def counter_updated(_: object) -> bool:
        return "1 answered" in block_texts(slack.fake.messages[ts]["blocks"])

    await slack.fake.wait_for(counter_updated, timeout=5)
    statuses = [c.status for c in slack.fake.calls_to("chat.update", ok_only=False)]
    assert statuses[-2:] == [429, 200]
    run = await engine.run_in(PLACE)
    assert [(v.value, v.count) for v in await store.vote_counts(run.id, "what-changed")] == [
        ("checkable-reward", 1)
    ]


async def test_a_failed_update_is_logged_and_the_answer_kept(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore, caplog: pytest.LogCaptureFixture
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    slack.fake.fail_next("chat.update", times=5, status=200, error="message_not_found")
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.wait_ephemeral(ALICE, "You chose")
    await slack.fake.wait_for(
        lambda calls: any(c.method == "chat.update" and not c.ok for c in calls)
    )
    await slack.command("reveal")
    reveal = await slack.wait_post("Results: Same brain")
    assert "1 (100%) A new training stage" in block_texts(reveal.args["blocks"])
    assert "chat.update failed: message_not_found" in caplog.text


async def test_a_click_is_answered_before_a_slow_private_reply(slack: SlackDriver) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    reply_may_go = slack.fake.hold(RESPOND)
    async with asyncio.timeout(ACK_DEADLINE):  # the ack does not wait for the reply
        assert await slack.click(slack.button(question, RIGHT), ALICE, question) == 200
    assert slack.ephemerals(ALICE) == []
    reply_may_go.set()
    await slack.wait_ephemeral(ALICE, "You chose")
