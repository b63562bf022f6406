"""The benchmarks still run: `python -m benchmarks --quick` reports every key with sane types."""

from __future__ import annotations

from datetime import datetime

import pytest

from benchmarks.suite import REQUIRED_KEYS
from tests.benchmarks.conftest import QuickRun, quick_run_waits

pytestmark = quick_run_waits

MEASURED_IN_QUICK_MODE = (
    "vote_path_ratio",
    "vote_p99_ms",
    "burst_p99_ack_ms",
    "slack_burst_p99_ack_ms",
    "checker_median_ms",
    "assigned_p99_ack_ms",
    "assigned_rss_ratio",
    "peer_p99_ack_ms",
    "peer_why_p99_ack_ms",
    "peer_show_p99_ms",
    "recall_p99_ack_ms",
    "recall_rss_ratio",
    "rss_mb_1000_runs",
    "reveal_ms_10",
    "reveal_ms_10000",
    "short_checker_agreement_pct",
    "short_checker_median_ms",
)


def test_every_headline_key_is_present(quick_run: QuickRun) -> None:
    _, results = quick_run
    assert set(REQUIRED_KEYS) <= set(results)


@pytest.mark.parametrize("key", MEASURED_IN_QUICK_MODE)
def test_measured_figures_are_positive_numbers(
    quick_run: QuickRun, key: str
) -> None:
    value = quick_run[1][key]
    assert isinstance(value, float) and value > 0, (key, value)


@pytest.mark.parametrize(
    "key",
    [
        "burst_lost", "edits_per_2s_max", "slack_burst_lost", "slack_edits_per_2s_max",
        "assigned_lost", "assigned_unacked", "assigned_card_edits_per_2s_max",
        "peer_lost", "peer_doubled", "peer_why_missed", "recall_lost", "recall_doubled",
    ],
)
def test_burst_counts_are_whole_numbers(quick_run: QuickRun, key: str) -> None:
    value = quick_run[1][key]
    assert isinstance(value, float) and value >= 0 and value.is_integer(), (key, value)


def test_unmeasured_figures_are_null_with_a_note(
    quick_run: QuickRun,
) -> None:
    _, results = quick_run
    notes = results["notes"]
    assert isinstance(notes, dict)
    for key in REQUIRED_KEYS:
        value = results[key]
        assert value is None or isinstance(value, float), (key, value)
        if value is None:
            assert "not measured" in notes[key]


def test_the_run_describes_itself(quick_run: QuickRun) -> None:
    _, results = quick_run
    machine = results["machine"]
    assert isinstance(machine, dict)
    assert {"cpu", "cores", "python", "sqlite"} <= set(machine)
    assert results["quick"] is True
    assert datetime.fromisoformat(str(results["timestamp"])).tzinfo is not None


def test_the_table_lists_metric_value_target_and_verdict(
    quick_run: QuickRun,
) -> None:
    table, _ = quick_run
    assert table.splitlines()[0].split() == ["metric", "value", "target", "met?"]
    assert any(line.startswith("vote_path_ratio") for line in table.splitlines())
