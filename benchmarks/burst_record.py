"""What one click burst measured on one platform, and the figures it gives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.timing import percentile

Figures = dict[str, float | str | None]
ACK_DEADLINE = 3.0
"""Seconds Discord and Slack give a bot to acknowledge an interaction."""
EDIT_WINDOW = 2.0
"""The counter should be edited at most once in any window this long (seconds)."""
FIGURE_NAMES = (
    "burst_p99_ack_ms", "burst_p50_ack_ms", "burst_max_ack_ms", "burst_unacked",
    "burst_late_acks", "burst_lost", "edits_per_2s_max", "burst_edits", "burst_unreplied",
    "burst_clicks", "burst_send_s", "burst_stored_s", "burst_rounds", "burst_p99_ack_ms_max",
)
"""Every figure one burst gives, in the order `record_figures` reports them."""


@dataclass(frozen=True)
class BurstSizes:
    """How big a burst is and how long its background work may take."""

    clicks: int
    seconds: float
    connections: int
    settle_seconds: float
    rounds: int = 1


@dataclass(frozen=True)
class BurstRecord:
    """One burst: ack latencies (None: never acknowledged), votes stored, counter edits."""

    clicks: int
    acks: Sequence[float | None]
    stored: int
    replied: int
    edit_times: Sequence[float]
    send_seconds: float
    stored_seconds: float | None


def most_in_window(times: Sequence[float], window: float = EDIT_WINDOW) -> int:
    """The most events that fall in any half-open interval `window` seconds long."""
    ordered = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(ordered):
        while at - ordered[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def ack_figures(acks: Sequence[float | None]) -> Figures:
    """p50, p99 and slowest acknowledgement in ms; unacknowledged and late clicks."""
    acked = [seconds * 1000 for seconds in acks if seconds is not None]
    if not acked:
        return {"burst_p99_ack_ms": None, "burst_p50_ack_ms": None, "burst_max_ack_ms": None,
                "burst_unacked": float(len(acks)), "burst_late_acks": 0.0}
    return {
        "burst_p99_ack_ms": percentile(acked, 99),
        "burst_p50_ack_ms": percentile(acked, 50),
        "burst_max_ack_ms": max(acked),
        "burst_unacked": float(len(acks) - len(acked)),
        "burst_late_acks": float(sum(ms >= ACK_DEADLINE * 1000 for ms in acked)),
    }


def record_figures(record: BurstRecord) -> Figures:
    """Every figure of one burst, unprefixed (Discord's names)."""
    return {
        **ack_figures(record.acks),
        "burst_lost": float(record.clicks - record.stored),
        "edits_per_2s_max": float(most_in_window(record.edit_times)),
        "burst_edits": float(len(record.edit_times)),
        "burst_unreplied": float(record.clicks - record.replied),
        "burst_clicks": float(record.clicks),
        "burst_send_s": record.send_seconds,
        "burst_stored_s": record.stored_seconds,
    }


def median_round(records: Sequence[BurstRecord]) -> Figures:
    """The figures of the round with the median p99 ack, and how many rounds and their worst."""
    rounds = sorted((record_figures(record) for record in records), key=_p99_or_worst)
    worst = _p99_or_worst(rounds[-1])
    return {
        **rounds[len(rounds) // 2],
        "burst_rounds": float(len(rounds)),
        "burst_p99_ack_ms_max": None if worst == float("inf") else worst,
    }


def _p99_or_worst(figures: Figures) -> float:
    value = figures["burst_p99_ack_ms"]
    return float(value) if isinstance(value, int | float) else float("inf")


def prefixed(figures: Figures, prefix: str) -> Figures:
    """The same figures with `prefix` in front of every name."""
    return {prefix + name: value for name, value in figures.items()}
