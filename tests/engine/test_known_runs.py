"""Runs kept in memory: a burst of clicks on a run this process has not seen loads it once."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.known_runs import KnownRuns
from bot.model import Phase, Place, Position, RunRecord, RunState

PLACE = Place("discord", "guild", "channel")


def a_run(run_id: int) -> RunRecord:
    """A run as the store would return it."""
    return RunRecord(
        id=run_id, place=PLACE, lesson_id="rlvr", lesson_version=1, host_id="host",
        state=RunState.ACTIVE, position=Position(0, Phase.OPEN), timer_seconds=None, deadline=None,
    )


class SlowStore:
    """Loads runs only when told to, counting the loads."""

    def __init__(self, missing: bool = False) -> None:
        self.loads = 0
        self.missing = missing
        self.release = asyncio.Event()

    async def get_run(self, run_id: int) -> RunRecord | None:
        """The run, once `release` is set."""
        self.loads += 1
        await self.release.wait()
        return None if self.missing else a_run(run_id)


async def test_many_concurrent_misses_share_one_load() -> None:
    store = SlowStore()
    runs = KnownRuns(store.get_run)
    waiting = [asyncio.ensure_future(runs.get(7)) for _ in range(64)]
    await asyncio.sleep(0)
    store.release.set()
    found = await asyncio.gather(*waiting)
    assert store.loads == 1 and {run.id for run in found if run} == {7}
    assert (await runs.get(7)) is found[0] and store.loads == 1


async def test_a_run_just_created_needs_no_load() -> None:
    store = SlowStore()
    runs = KnownRuns(store.get_run)
    runs.remember(a_run(3))
    assert (await runs.get(3)) == a_run(3) and store.loads == 0


async def test_a_missing_run_is_asked_for_again_later() -> None:
    store = SlowStore(missing=True)
    store.release.set()
    runs = KnownRuns(store.get_run)
    assert await runs.get(5) is None and await runs.get(5) is None
    assert store.loads == 2


async def test_a_failed_load_fails_every_waiter_and_is_retried() -> None:
    class Failing:
        calls = 0

        async def get_run(self, run_id: int) -> RunRecord | None:
            self.calls += 1
            await asyncio.sleep(0)
            raise ConnectionError("database down")

    store = Failing()
    runs = KnownRuns(store.get_run)
    results = await asyncio.gather(runs.get(1), runs.get(1), return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results) and store.calls == 1
    with pytest.raises(ConnectionError):
        await runs.get(1)
    assert store.calls == 2


async def test_the_map_is_bounded() -> None:
    runs = KnownRuns(SlowStore().get_run, kept=3)
    for run_id in range(5):
        runs.remember(a_run(run_id))
    assert 0 < len(runs) <= 3
