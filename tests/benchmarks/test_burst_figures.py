"""The burst benchmark's arithmetic: edits per window, ack percentiles, pacing and deadlines."""

from __future__ import annotations

import asyncio

from benchmarks.burst_record import (
    FIGURE_NAMES,
    BurstRecord,
    ack_figures,
    median_round,
    most_in_window,
    prefixed,
    record_figures,
)
from benchmarks.burst_timing import paced, settled
from benchmarks.burst_world import shows_count


def test_edits_are_counted_in_any_two_second_window() -> None:
    assert most_in_window([]) == 0
    assert most_in_window([0.0, 3.0, 6.0]) == 1
    assert most_in_window([0.0, 1.99, 4.0]) == 2
    assert most_in_window([0.0, 2.0, 4.0]) == 1
    assert most_in_window([5.0, 0.5, 5.5, 6.0]) == 3


def test_acks_give_percentiles_and_count_the_missing_and_the_late() -> None:
    figures = ack_figures([0.1] * 98 + [3.5, None])
    assert figures["burst_p50_ack_ms"] == 100.0
    assert figures["burst_max_ack_ms"] == 3500.0
    assert figures["burst_unacked"] == 1.0 and figures["burst_late_acks"] == 1.0


def test_no_ack_at_all_gives_null_latencies() -> None:
    figures = ack_figures([None, None])
    assert figures["burst_p99_ack_ms"] is None and figures["burst_unacked"] == 2.0


def test_a_record_reports_every_named_figure_and_the_lost_clicks() -> None:
    record = BurstRecord(clicks=3, acks=[0.01, 0.02, 0.03], stored=2, replied=3,
                         edit_times=[0.0, 3.0], send_seconds=0.5, stored_seconds=None)
    assert tuple(median_round([record])) == FIGURE_NAMES
    figures = record_figures(record)
    assert figures["burst_lost"] == 1.0 and figures["edits_per_2s_max"] == 1.0
    assert set(prefixed(median_round([record]), "slack_")) == {f"slack_{n}" for n in FIGURE_NAMES}


def test_a_count_is_matched_whole() -> None:
    assert shows_count("run 4 · 2000 answered", 2000)
    assert not shows_count("run 4 · 12 answered", 2)


async def test_paced_operations_start_spread_over_the_span_and_keep_their_order() -> None:
    loop = asyncio.get_running_loop()
    begin = loop.time()

    async def started() -> float:
        return loop.time() - begin

    times = await paced([started] * 5, 0.1)
    assert times == sorted(times)
    assert 0.07 <= times[-1] < 0.5


async def test_settled_gives_up_at_the_deadline() -> None:
    loop = asyncio.get_running_loop()

    async def never() -> bool:
        return False

    async def always() -> bool:
        return True

    assert not await settled(never, loop.time() + 0.05)
    assert await settled(always, loop.time() - 1)


def a_round(acks: list[float | None], stored: int = 3) -> BurstRecord:
    """A burst of three clicks with these ack times (seconds)."""
    return BurstRecord(clicks=3, acks=acks, stored=stored, replied=3, edit_times=[0.0],
                       send_seconds=0.5, stored_seconds=1.0)


def test_the_median_round_is_reported_with_the_worst_p99() -> None:
    figures = median_round([a_round([0.1, 0.9, 0.2]), a_round([0.1, 0.2, 0.3]),
                            a_round([0.4, 0.5, 0.6], stored=2)])
    assert figures["burst_p99_ack_ms"] == 600.0 and figures["burst_lost"] == 1.0
    assert figures["burst_p99_ack_ms_max"] == 900.0 and figures["burst_rounds"] == 3.0


def test_a_round_without_acks_counts_as_the_worst() -> None:
    figures = median_round([a_round([None, None, None]), a_round([0.1, 0.1, 0.1])])
    assert figures["burst_unacked"] == 3.0 and figures["burst_p99_ack_ms_max"] is None
