"""Work after acks waits for the acks and for a stream to pause, all of it behind one watcher."""

from __future__ import annotations

import asyncio

from bot.service.backpressure import STREAM_CLICKS, Arrivals, PendingAcks

PAUSE = 0.05
WAITERS = 500


def watchers() -> int:
    """Tasks now watching for the moment work may start."""
    return sum("_acknowledgements_done" in repr(task) for task in asyncio.all_tasks())


async def test_work_starts_at_once_when_nothing_is_being_acked() -> None:
    acks = PendingAcks()
    await asyncio.wait_for(acks.work_may_start(), timeout=1)
    assert watchers() == 0


async def test_work_waits_for_the_ack_being_sent() -> None:
    acks, started = PendingAcks(), asyncio.Event()
    with acks.acknowledging():
        work = asyncio.ensure_future(acks.work_may_start())
        work.add_done_callback(lambda _: started.set())
        await asyncio.sleep(0)
        assert not started.is_set()
    await asyncio.wait_for(started.wait(), timeout=1)


async def test_work_waits_for_a_stream_of_requests_to_pause() -> None:
    acks = PendingAcks(arrivals=Arrivals(PAUSE, seconds=1.0))  # a stream even on a slow machine
    loop = asyncio.get_running_loop()
    before_the_stream = loop.time()
    for _ in range(STREAM_CLICKS):
        acks.arrived()
    await asyncio.wait_for(acks.work_may_start(), timeout=2)
    assert loop.time() - before_the_stream >= PAUSE


async def test_work_waits_at_most_its_timeout() -> None:
    acks = PendingAcks()
    with acks.acknowledging():
        await asyncio.wait_for(acks.work_may_start(timeout=0.05), timeout=2)


async def test_many_waiting_pieces_of_work_share_one_watcher() -> None:
    acks = PendingAcks()
    with acks.acknowledging():
        waiting = [asyncio.ensure_future(acks.work_may_start()) for _ in range(WAITERS)]
        await asyncio.sleep(0)
        assert watchers() == 1
    await asyncio.wait_for(asyncio.gather(*waiting), timeout=2)
    assert watchers() == 0


async def test_switched_off_work_never_waits_for_acks_or_streams() -> None:
    acks = PendingAcks(enabled=False, arrivals=Arrivals(PAUSE, seconds=1.0))
    with acks.acknowledging():
        for _ in range(STREAM_CLICKS):
            acks.arrived()
        await asyncio.wait_for(acks.work_may_start(), timeout=1)
    assert acks.arrivals.hold_for(asyncio.get_running_loop().time()) == 0.0
    assert watchers() == 0


async def test_work_waits_while_the_bot_reads_requests_already_waiting() -> None:
    acks, started = PendingAcks(), asyncio.Event()
    acks.reading(behind=True)  # a gateway read found its event already waiting
    work = asyncio.ensure_future(acks.work_may_start())
    work.add_done_callback(lambda _: started.set())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not started.is_set()
    acks.reading(behind=False)  # a read had to wait: every waiting event is read
    await asyncio.wait_for(started.wait(), timeout=1)


async def test_work_behind_a_reader_still_waits_at_most_its_timeout() -> None:
    acks = PendingAcks()
    acks.reading(behind=True)
    await asyncio.wait_for(acks.work_may_start(timeout=0.05), timeout=2)


async def test_a_request_acked_beside_others_or_in_a_stream_is_crowded() -> None:
    acks = PendingAcks(arrivals=Arrivals(PAUSE, seconds=1.0))
    with acks.acknowledging():
        assert not acks.crowded()  # alone
        with acks.acknowledging():
            assert acks.crowded()
    for _ in range(STREAM_CLICKS):
        acks.arrived()
    assert acks.crowded()
    assert not PendingAcks(enabled=False).crowded()
