"""Work after an ack waits while other requests are being acked, and a shutdown lets it end."""

from __future__ import annotations

import asyncio

import pytest

from bot.slack_adapter.acking import InFlight


async def every_ready_task_ran() -> None:
    """Let the event loop run everything that is ready (a few turns, no waiting on time)."""
    for _ in range(10):
        await asyncio.sleep(0)


async def note(done: list[str], what: str) -> None:
    """Work that records that it ran."""
    done.append(what)


async def test_work_waits_until_no_request_is_being_decided() -> None:
    inflight, done = InFlight(), []
    with inflight.acks.acknowledging():
        inflight.start(note(done, "reply"))
        await every_ready_task_ran()
        assert done == [] and len(inflight) == 1
    await inflight.drain()
    assert done == ["reply"] and len(inflight) == 0


async def test_work_runs_at_once_when_nothing_is_being_decided() -> None:
    inflight, done = InFlight(), []
    inflight.start(note(done, "reply"))
    await inflight.drain(timeout=1)
    assert done == ["reply"]


async def test_work_waits_for_the_acks_at_most_a_while() -> None:
    inflight, done = InFlight(acks_first=0.05), []
    with inflight.acks.acknowledging():
        inflight.start(note(done, "reply"))
        await inflight.drain(timeout=2)
        assert done == ["reply"]


async def test_a_failure_after_the_ack_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def broken() -> None:
        raise RuntimeError("boom")

    inflight = InFlight()
    inflight.start(broken())
    await inflight.drain(timeout=1)
    assert "a Slack request failed after its ack" in caplog.text and len(inflight) == 0


async def test_replies_queued_behind_acks_cost_no_task_each_until_the_acks_are_done() -> None:
    inflight, done = InFlight(), []
    tasks_before = len(asyncio.all_tasks())
    with inflight.acks.acknowledging():
        for number in range(500):
            inflight.start(note(done, f"reply {number}"))
        await every_ready_task_ran()
        assert len(asyncio.all_tasks()) - tasks_before <= 2  # one starter, one watcher
        assert done == [] and len(inflight) == 500
    await inflight.drain(timeout=5)
    assert len(done) == 500 and len(inflight) == 0
