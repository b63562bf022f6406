"""A run's turn to move and post: one holder at a time, here and across processes."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.model import Member, Place, StillPosting
from bot.service import posting
from bot.service.posting import INCARNATION, PostingTurns, holder_gone
from bot.verifier import Checker
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock

PLACE = Place("discord", "guild", "channel")
HOST = Member("host", "Host", is_host=True)


@pytest.fixture
async def other_engine(
    database_url: str, checker: Checker, clock: FakeClock
) -> AsyncIterator[LessonEngine]:
    """An engine with its own connections to the same database, as in another process."""
    database = open_database(database_url)
    yield LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock)
    await database.dispose()


async def run_id(engine: LessonEngine) -> int:
    """A new run's id."""
    return (await engine.start(PLACE, HOST)).run_id


async def test_a_second_request_here_waits_until_the_first_gives_the_turn_back(
    engine: LessonEngine,
) -> None:
    turns = PostingTurns(engine)
    run = await run_id(engine)
    first = await turns.take(run)
    second = asyncio.create_task(turns.take(run))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not second.done()
    await first.release()
    await (await asyncio.wait_for(second, 5)).release()


async def test_another_process_waits_for_the_turn_and_gives_up_after_its_patience(
    engine: LessonEngine, other_engine: LessonEngine
) -> None:
    here, there = PostingTurns(engine), PostingTurns(other_engine, patience=0.3)
    run = await run_id(engine)
    async with here.holding(run):
        with pytest.raises(StillPosting, match="still posting the last step"):
            await there.take(run)
        waiting = asyncio.create_task(there.take(run, patience=10))
    await (await asyncio.wait_for(waiting, 5)).release()


async def test_a_turn_held_longer_than_its_lease_is_kept_by_a_live_holder(
    engine: LessonEngine, other_engine: LessonEngine
) -> None:
    here, there = PostingTurns(engine, lease=0.6), PostingTurns(other_engine, patience=0)
    run = await run_id(engine)
    async with here.holding(run):
        await asyncio.sleep(1.5)  # the time under test: well past the lease, renewed meanwhile
        with pytest.raises(StillPosting):
            await there.take(run)
    await (await there.take(run)).release()


async def test_the_turn_of_another_machine_that_died_is_free_once_its_lease_lapses(
    engine: LessonEngine, other_engine: LessonEngine
) -> None:
    run = await run_id(engine)
    assert await engine.messages.claim_turn(run, "another-machine:4242:0badf00d:1", 0.5)
    there = PostingTurns(other_engine, patience=0)
    with pytest.raises(StillPosting):
        await there.take(run)
    turn = await PostingTurns(other_engine, patience=5).take(run)
    await turn.release()


async def test_the_turn_of_a_process_of_this_machine_that_died_is_taken_over_at_once(
    engine: LessonEngine, other_engine: LessonEngine
) -> None:
    run = await run_id(engine)
    ended = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await ended.wait()
    dead = f"{posting.HOST}:{ended.pid}:0badf00d:1"
    assert holder_gone(dead) and not holder_gone(PostingTurns(engine).holder)
    assert await engine.messages.claim_turn(run, dead, 3600)
    turn = await PostingTurns(other_engine, patience=0).take(run)
    assert await other_engine.messages.turn_holder(run) == turn.turns.holder
    await turn.release()


async def test_an_earlier_process_with_this_process_id_counts_as_gone() -> None:
    earlier = f"{posting.HOST}:{os.getpid()}:0badf00d:1"
    assert holder_gone(earlier)
    assert not holder_gone(f"{posting.HOST}:{os.getpid()}:{INCARNATION}:99")
