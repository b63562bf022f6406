"""The benchmarks still run: `python -m benchmarks --quick` reports every key with sane types."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from benchmarks.suite import REQUIRED_KEYS

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, object]]:
    """One quick run of the whole suite: its printed table and its JSON document."""
    output = tmp_path_factory.mktemp("bench") / "results.json"
    command = [sys.executable, "-m", "benchmarks", "--quick", "--output", str(output)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout, json.loads(output.read_text())


def test_every_headline_key_is_present(quick_run: tuple[str, dict[str, object]]) -> None:
    _, results = quick_run
    assert set(REQUIRED_KEYS) <= set(results)


@pytest.mark.parametrize("key", MEASURED_IN_QUICK_MODE)
def test_measured_figures_are_positive_numbers(
    quick_run: tuple[str, dict[str, object]], key: str
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
def test_burst_counts_are_whole_numbers(quick_run: tuple[str, dict[str, object]], key: str) -> None:
    value = quick_run[1][key]
    assert isinstance(value, float) and value >= 0 and value.is_integer(), (key, value)


def test_unmeasured_figures_are_null_with_a_note(
    quick_run: tuple[str, dict[str, object]],
) -> None:
    _, results = quick_run
    notes = results["notes"]
    assert isinstance(notes, dict)
    for key in REQUIRED_KEYS:
        value = results[key]
        assert value is None or isinstance(value, float), (key, value)
        if value is None:
            assert "not measured" in notes[key]


def test_the_run_describes_itself(quick_run: tuple[str, dict[str, object]]) -> None:
    _, results = quick_run
    machine = results["machine"]
    assert isinstance(machine, dict)
    assert {"cpu", "cores", "python", "sqlite"} <= set(machine)
    assert results["quick"] is True
    assert datetime.fromisoformat(str(results["timestamp"])).tzinfo is not None


def test_the_table_lists_metric_value_target_and_verdict(
    quick_run: tuple[str, dict[str, object]],
) -> None:
    table, _ = quick_run
    assert table.splitlines()[0].split() == ["metric", "value", "target", "met?"]
    assert any(line.startswith("vote_path_ratio") for line in table.splitlines())
