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
