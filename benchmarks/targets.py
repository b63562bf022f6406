"""The targets each headline figure is held to."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass

_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
}


@dataclass(frozen=True)
class Target:
    """A bound a figure should meet, such as `< 50`."""

    comparison: str
    bound: float

    def met(self, value: object) -> bool | None:
        """Whether `value` meets the bound; None when nothing was measured."""
        if not isinstance(value, int | float):
            return None
        return _COMPARE[self.comparison](float(value), self.bound)

    def __str__(self) -> str:
        return f"{self.comparison} {self.bound:g}"


TARGETS: dict[str, Target] = {
    "vote_path_ratio": Target(">=", 0.5),
    "vote_p99_ms": Target("<", 50),
    "vote_errors": Target("==", 0),
    "pg_vote_path_ratio": Target(">=", 0.5),
    "pg_vote_p99_ms": Target("<", 50),
    "pg_vote_errors": Target("==", 0),
    "burst_p99_ack_ms": Target("<", 500),
    "burst_late_acks": Target("==", 0),
    "burst_lost": Target("==", 0),
    "edits_per_2s_max": Target("<=", 1),
    "slack_burst_p99_ack_ms": Target("<", 500),
    "slack_burst_late_acks": Target("==", 0),
    "slack_burst_lost": Target("==", 0),
    "slack_edits_per_2s_max": Target("<=", 1),
    "pg_burst_p99_ack_ms": Target("<", 500),
    "pg_burst_late_acks": Target("==", 0),
    "pg_burst_lost": Target("==", 0),
    "pg_edits_per_2s_max": Target("<=", 1),
    "pg_slack_burst_p99_ack_ms": Target("<", 500),
    "pg_slack_burst_late_acks": Target("==", 0),
    "pg_slack_burst_lost": Target("==", 0),
    "pg_slack_edits_per_2s_max": Target("<=", 1),
    **{
        f"{prefix}{name}": target
        for prefix in ("", "pg_")
        for name, target in (
            ("assigned_p99_ack_ms", Target("<", 500)),
            ("assigned_unacked", Target("==", 0)),
            ("assigned_late_acks", Target("==", 0)),
            ("assigned_lost", Target("==", 0)),
            ("assigned_misplaced", Target("==", 0)),
            ("assigned_card_edits_per_2s_max", Target("<=", 1)),
        )
    },
    "assigned_rss_ratio": Target("<=", 1.25),
    **{
        f"{prefix}{name}": target
        for prefix in ("", "pg_")
        for name, target in (
            ("peer_p99_ack_ms", Target("<", 500)),
            ("peer_unacked", Target("==", 0)),
            ("peer_late_acks", Target("==", 0)),
            ("peer_why_p99_ack_ms", Target("<", 500)),
            ("peer_why_missed", Target("==", 0)),
            ("peer_lost", Target("==", 0)),
            ("peer_doubled", Target("==", 0)),
            ("peer_reasons_wrong", Target("==", 0)),
            ("peer_show_p99_ms", Target("<", 20)),
            ("peer_show_thread_p99_ms", Target("<", 20)),
        )
    },
    **{
        f"{prefix}{name}": target
        for prefix in ("", "pg_")
        for name, target in (
            ("recall_p99_ack_ms", Target("<", 500)),
            ("recall_unacked", Target("==", 0)),
            ("recall_late_acks", Target("==", 0)),
            ("recall_lost", Target("==", 0)),
            ("recall_doubled", Target("==", 0)),
            ("recall_answers_lost", Target("==", 0)),
            ("recall_refused", Target("==", 0)),
            ("recall_pace_ratio", Target("<=", 1)),
            ("recall_rss_ratio", Target("<=", 1.25)),
            ("recall_due_closed_ratio", Target("<=", 2)),
            ("recall_pace_kept", Target(">=", 0.9)),
        )
    },
    "checker_median_ms": Target("<", 5),
    "fair_flood_max_ms": Target("<", 2000),
    "fair_crowd_max_ms": Target("<", 2000),
    "rss_mb_1000_runs": Target("<", 200),
    "rss_failed_clicks": Target("==", 0),
    "reveal_growth": Target("<=", 5),
    "click_growth": Target("<=", 2),
    "pg_click_growth": Target("<=", 2),
    "short_checker_wrong": Target("==", 0),
    "short_agreement_lead_pct": Target(">=", 0),
    "short_speedup": Target(">=", 5),
}
"""Figures without an entry here are reported for context only."""


def targets_met(figures: Mapping[str, object]) -> dict[str, dict[str, object]]:
    """Each target of a reported figure, and whether the figure met it (None: not measured)."""
    return {name: {"target": str(target), "met": target.met(figures[name])}
            for name, target in TARGETS.items() if name in figures}
