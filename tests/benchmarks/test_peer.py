"""The peer benchmark runs small and loses nothing; its figures are counted as the README says."""

from __future__ import annotations

import pytest

from benchmarks import bench_peer
from benchmarks.databases import server_url
from benchmarks.peer_live import LiveRound, Stored
from benchmarks.peer_reasons import ShowRound
from benchmarks.suite import BENCHMARKS
from tests.benchmarks.conftest import Figures, quick_run_waits

pytestmark = quick_run_waits

PREFIXES = ("", "pg_") if server_url() else ("",)
"""SQLite always; PostgreSQL too when TEST_DATABASE_URL is set."""
NOTHING_LOST = ("peer_lost", "peer_unacked", "peer_doubled", "peer_reasons_wrong",
                "peer_why_missed")


def test_the_runner_knows_the_peer_benchmark() -> None:
    assert "peer" in [benchmark.name for benchmark in BENCHMARKS]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_member_answers_and_says_why_exactly_once(
    quick_figures: Figures, prefix: str
) -> None:
    assert quick_figures[f"{prefix}peer_members"] == bench_peer.QUICK.live.members
    for name in NOTHING_LOST:
        assert quick_figures[prefix + name] == 0.0, name


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize(
    "name",
    ["peer_p99_ack_ms", "peer_choose_p99_ack_ms", "peer_reason_p99_ack_ms",
     "peer_why_p99_ack_ms", "peer_show_p99_ms", "peer_show_thread_p99_ms"],
)
def test_latencies_are_measured(quick_figures: Figures, prefix: str, name: str) -> None:
    value = quick_figures[prefix + name]
    assert isinstance(value, float) and 0 < value < float("inf"), (name, value)


def test_reasons_are_chosen_from_the_stored_ones(quick_figures: Figures) -> None:
    assert quick_figures["peer_show_reasons"] == bench_peer.QUICK.reasons
    assert quick_figures["peer_show_calls"] == bench_peer.QUICK.show_calls


def live(
    choose: list[float | None], why: list[float | None], reason: list[float | None],
    opened: int, stored: Stored | None = None,
) -> LiveRound:
    """A live round of these acknowledgements (seconds), forms opened and rows stored."""
    return LiveRound(choose, why, reason, opened, stored or Stored(0, 0, 0, 0))


def test_the_answering_path_is_the_choice_and_the_submission_not_the_form() -> None:
    figures = bench_peer.live_figures(live([0.01, 0.02], [2.5, None], [0.03, None], opened=1))
    assert figures["peer_p99_ack_ms"] == 30.0 and figures["peer_unacked"] == 1.0
    assert figures["peer_why_p99_ack_ms"] == 2500.0 and figures["peer_why_missed"] == 1.0
    assert figures["peer_late_acks"] == 0.0


def test_late_acks_lost_and_doubled_rows_are_counted() -> None:
    stored = Stored(answers_lost=1, reasons_lost=2, doubled=1, reasons_wrong=1)
    figures = bench_peer.live_figures(live([3.2, 0.1], [0.1, 0.1], [0.1, 0.1], 2, stored))
    assert figures["peer_late_acks"] == 1.0 and figures["peer_lost"] == 3.0
    assert figures["peer_doubled"] == 1.0 and figures["peer_reasons_wrong"] == 1.0


def test_each_figure_is_the_median_of_its_rounds() -> None:
    rounds = [bench_peer.show_figures(ShowRound([ms] * 100, [ms] * 100, 10)) for ms in (1, 9, 4)]
    figures = bench_peer.medians(rounds, "pg_")
    assert figures["pg_peer_show_p99_ms"] == 4 and figures["pg_peer_rounds"] == 3.0
