"""Flushing the live counters waits for edits under way, not only for those still waiting."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

from bot.service.live_counter import CounterThrottle


async def test_flush_waits_for_an_edit_already_under_way() -> None:
    started, release = asyncio.Event(), asyncio.Event()
    edited: list[Hashable] = []

    async def edit(key: Hashable) -> None:
        started.set()
        await release.wait()
        edited.append(key)

    throttle = CounterThrottle(edit, interval=60.0)
    throttle.touch("question")
    await started.wait()
    flushing = asyncio.ensure_future(throttle.flush())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not flushing.done()

    release.set()
    await asyncio.wait_for(flushing, 5)
    assert edited == ["question"]


async def test_edit_times_of_past_messages_are_dropped() -> None:
    now = [0.0]
    edited: list[Hashable] = []

    async def edit(key: Hashable) -> None:
        edited.append(key)

    throttle = CounterThrottle(edit, interval=2.0, clock=lambda: now[0])
    for message in range(1000):
        throttle.touch(("channel", message))
    await throttle.flush()
    assert len(edited) == 1000 and throttle.tracked() == 1000
    now[0] = 2.0
    throttle.touch(("channel", "new question"))
    await throttle.flush()
    assert throttle.tracked() == 1 and edited[-1] == ("channel", "new question")
    throttle.forget(("channel", "new question"))
    assert throttle.tracked() == 0


async def test_a_slow_edit_delays_the_next_by_a_whole_interval_from_its_end() -> None:
    loop = asyncio.get_running_loop()
    spans: list[tuple[float, float]] = []
    touched_during_edit = asyncio.Event()

    async def slow_edit(key: Hashable) -> None:  # a platform that takes 0.15 s to answer
        began = loop.time()
        if not spans:
            throttle.touch(key)  # a click arrives while the edit is under way
            touched_during_edit.set()
        await asyncio.sleep(0.15)
        spans.append((began, loop.time()))

    throttle = CounterThrottle(slow_edit, interval=0.2, clock=loop.time)
    throttle.touch("card")
    await touched_during_edit.wait()
    await throttle.flush()
    (_, first_end), (second_start, _) = spans
    assert second_start - first_end >= 0.2 - 0.01  # not 0.2 from the first edit's start
