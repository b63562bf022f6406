"""The recall benchmark runs small and loses nothing; its figures are counted as the README says."""

from __future__ import annotations

import pytest

from benchmarks import bench_recall
from benchmarks.databases import server_url
from benchmarks.recall_live import Arrival, LiveRound, Stored
from benchmarks.suite import BENCHMARKS
from bot.service.recalls import DEFAULT_PACE
from tests.benchmarks.conftest import Figures, quick_run_waits

pytestmark = quick_run_waits

PREFIXES = ("", "pg_") if server_url() else ("",)
"""SQLite always; PostgreSQL too when TEST_DATABASE_URL is set."""
NOTHING_LOST = ("recall_lost", "recall_doubled", "recall_unacked", "recall_late_acks",
                "recall_answers_lost", "recall_unreachable", "recall_refused")
QUESTIONS = 3
"""The default lesson's delayed recall questions."""


def test_the_runner_knows_the_recall_benchmark() -> None:
    assert "recall" in [benchmark.name for benchmark in BENCHMARKS]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_member_gets_one_check_and_answers_it(quick_figures: Figures, prefix: str) -> None:
    members = bench_recall.QUICK.members
    assert quick_figures[f"{prefix}recall_members"] == members
    assert quick_figures[f"{prefix}recall_sent"] == members
    assert quick_figures[f"{prefix}recall_clicks"] == members * QUESTIONS
    for name in NOTHING_LOST:
        assert quick_figures[prefix + name] == 0.0, name


@pytest.mark.parametrize("prefix", PREFIXES)
def test_the_checks_go_out_at_the_pace_and_no_faster(quick_figures: Figures, prefix: str) -> None:
    assert quick_figures[f"{prefix}recall_pace"] == DEFAULT_PACE
    ratio = quick_figures[f"{prefix}recall_pace_ratio"]
    assert isinstance(ratio, float) and 0 < ratio <= 1


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize(
    "name",
    ["recall_p99_ack_ms", "recall_sends_per_s", "recall_plan_ms", "recall_due_p99_ms",
     "recall_open_check_p99_ms", "recall_rss_mb_few", "recall_rss_mb_many", "recall_rss_ratio"],
)
def test_times_and_memory_are_measured(quick_figures: Figures, prefix: str, name: str) -> None:
    value = quick_figures[prefix + name]
    assert isinstance(value, float) and 0 < value < float("inf"), (name, value)


def checks_at(*times: float) -> LiveRound:
    """A round of one member per check, each reaching the platform at one of `times`."""
    sent = [Arrival(n, at, {}) for n, at in enumerate(times)]
    return LiveRound(len(times), QUESTIONS, sent, [0.01], Stored(len(times), len(times), 0, 3),
                     rss_mb=100.0, started_at=0.0)


def test_sends_are_grouped_in_ticks_and_held_to_the_pace_in_any_second() -> None:
    first, second = [1.0 + n / 100 for n in range(20)], [2.5 + n / 100 for n in range(20)]
    figures = bench_recall.live_figures(checks_at(*first, *second, 4.0))
    assert figures["recall_ticks"] == 3 and figures["recall_sends_per_tick_max"] == 20
    assert figures["recall_sends_in_1s_max"] == 20 and figures["recall_pace_ratio"] == 1.0
    assert figures["recall_sends_per_s"] == pytest.approx(21 / (4.0 - 1.19))  # from the 20th
    assert figures["recall_all_sent_s"] == 4.0


def test_checks_sent_faster_than_the_pace_show_in_the_ratio() -> None:
    burst = [1.0 + n / 100 for n in range(30)]
    figures = bench_recall.live_figures(checks_at(*burst))
    assert figures["recall_sends_in_1s_max"] == 30 and figures["recall_pace_ratio"] == 1.5


def test_a_member_without_a_check_is_lost_and_a_second_check_doubled() -> None:
    measured = checks_at(1.0, 1.1)
    twice = LiveRound(3, QUESTIONS, [*measured.sent, Arrival(0, 2.5, {})], [0.01, None],
                      Stored(3, 2, 0, 5), rss_mb=100.0, started_at=0.0)
    figures = bench_recall.live_figures(twice)
    assert figures["recall_lost"] == 1 and figures["recall_doubled"] == 1
    assert figures["recall_unacked"] == 1 and figures["recall_answers_lost"] == 4


@pytest.mark.parametrize("prefix", PREFIXES)
def test_closed_checks_leave_finding_the_due_ones_within_twice_as_long(
    quick_figures: Figures, prefix: str
) -> None:
    assert quick_figures[f"{prefix}recall_closed_checks"] == bench_recall.QUICK_CLOSED.closed
    ratio = quick_figures[f"{prefix}recall_due_closed_ratio"]
    assert isinstance(ratio, float) and 0 < ratio <= 2, ratio
