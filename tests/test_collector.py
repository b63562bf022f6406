"""The garbage collector is held while a stream of requests arrives, and runs again after."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

import bot.collector
from bot.arrivals import STREAM_CLICKS, Arrivals
from bot.collector import CollectorHold
from tests.waiting import wait_until

PAUSE = 0.05


class Collector:
    """Stands in for the `gc` module: only on or off, and nobody else's holds touch it."""

    def __init__(self) -> None:
        self.on = True

    def enable(self) -> None:
        """Automatic collection on."""
        self.on = True

    def disable(self) -> None:
        """Automatic collection off."""
        self.on = False

    def isenabled(self) -> bool:
        """Whether automatic collection is on."""
        return self.on


@pytest.fixture(autouse=True)
def gc(monkeypatch: pytest.MonkeyPatch) -> Collector:
    """The collector these tests hold and release (holds elsewhere in the process keep theirs)."""
    collector = Collector()
    monkeypatch.setattr(bot.collector, "gc", collector)
    return collector


class Stream:
    """Arrivals, a flag for requests still waiting for their ack, and the hold over both."""

    def __init__(self, longest: float = 10.0) -> None:
        self.arrivals = Arrivals(PAUSE)
        self.waiting = False
        self.hold = CollectorHold(self.arrivals, lambda: self.waiting, longest)

    def burst(self) -> float:
        """A stream's worth of requests arriving now; the loop time."""
        now = asyncio.get_running_loop().time()
        for _ in range(STREAM_CLICKS):
            self.arrivals.note(now)
        self.hold.check(now)
        return now


def released(stream: Stream) -> Callable[[], Awaitable[bool]]:
    """A condition: the stream's hold has let the collector run again."""

    async def condition() -> bool:
        return not stream.hold.holding

    return condition


async def test_a_stream_holds_the_collector_until_it_pauses(gc: Collector) -> None:
    stream = Stream()
    stream.burst()
    assert stream.hold.holding and not gc.isenabled()
    await wait_until(released(stream), timeout=2, what="the collector back on after the pause")
    assert gc.isenabled()


async def test_requests_spread_out_do_not_hold_the_collector(gc: Collector) -> None:
    stream = Stream()
    now = asyncio.get_running_loop().time()
    for number in range(STREAM_CLICKS):  # one every 10 ms: 100 a second
        stream.arrivals.note(now + number * 0.01)
    stream.hold.check(now + STREAM_CLICKS * 0.01)
    assert gc.isenabled() and not stream.hold.holding


async def test_the_collector_stays_held_while_requests_wait_for_their_ack(gc: Collector) -> None:
    stream = Stream()
    started = stream.burst()
    stream.waiting = True
    after_the_pause = started + 2 * PAUSE
    assert stream.arrivals.hold_for(after_the_pause) == 0  # the stream itself has paused
    assert stream.hold.hold_left(after_the_pause) > 0
    stream.waiting = False
    assert stream.hold.hold_left(after_the_pause) == 0
    await wait_until(released(stream), timeout=2, what="the collector back on")
    assert gc.isenabled()


async def test_a_stream_that_does_not_end_is_held_at_most_a_while(gc: Collector) -> None:
    stream = Stream(longest=0.2)
    started = stream.burst()
    stream.waiting = True  # the queue never empties
    await wait_until(released(stream), timeout=3, what="the collector back on")
    assert gc.isenabled() and asyncio.get_running_loop().time() - started >= 0.2
    stream.burst()
    assert gc.isenabled(), "held again before the stream paused"
    stream.waiting = False
    stream.hold.check(asyncio.get_running_loop().time() + 1.0)  # a request after a pause
    stream.burst()
    assert not gc.isenabled(), "a new stream after the pause is held again"
    await wait_until(released(stream), timeout=2, what="the collector back on")
    assert gc.isenabled()


async def test_a_collector_turned_off_by_someone_else_is_left_off(gc: Collector) -> None:
    gc.disable()
    stream = Stream()
    stream.burst()
    assert not stream.hold.holding and not gc.isenabled()
