"""A delayed recall at scale: 5,000 members' checks fall due at once, each sent and answered.

Live (`recall_live`): a lesson that 5,000 members answered ended a recall delay ago; the real
Discord bot starts in a process of its own against the fake Discord, plans every member's check
and sends them as direct messages at its pace (`DEFAULT_PACE` a tick of its timer loop); each
member answers their check's questions as it arrives. Figures: how fast the checks went out
against the pace (per tick, in any second, on average), checks lost or doubled, the
acknowledgement of every answer, answers lost, and the bot's RSS at the end, against the same
round with 500 members.

Queries (`recall_queries`): planning every member's check, finding the due checks a pace at a
time and a member's open check, one call at a time, with 5,000 checks.

Closed checks (`recall_closed`): finding the due checks beside 200,000 checks never to send
(unreachable, window passed, stopped), against the same call beside none, in turns.

Rounds alternate between a fresh SQLite file and the scratch PostgreSQL database (when
TEST_DATABASE_URL is set); each figure is the median over its database's rounds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from benchmarks.burst_record import ACK_DEADLINE, Figures, most_in_window
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from benchmarks.recall_closed import ClosedRound, ClosedSizes, closed_round
from benchmarks.recall_live import LiveRound, LiveSizes, live_round
from benchmarks.recall_queries import QueryRound, query_round
from benchmarks.timing import median, percentile
from bot.discord_adapter.client import TIMER_INTERVAL
from bot.process.event_loop import run_service
from bot.service.recalls import DEFAULT_PACE
from fakes.server_database import empty_server_tables

SERVER_PREFIX = "pg_"
PACE_PER_S = DEFAULT_PACE / TIMER_INTERVAL
"""The most checks the pace lets one process send in a second."""
TICK_GAP = 0.75 * TIMER_INTERVAL
"""Sends further apart than this belong to different ticks of the timer loop, which sleeps
`TIMER_INTERVAL` between two ticks."""
SEND_FIGURES = (
    "recall_sent", "recall_pace", "recall_ticks", "recall_sends_per_tick_max",
    "recall_sends_per_tick_median", "recall_tick_ms_median", "recall_tick_ms_max",
    "recall_sends_in_1s_max", "recall_pace_ratio", "recall_sends_per_s", "recall_pace_kept",
    "recall_send_s",
)
"""Every figure `send_figures` gives (all 0 when nothing was sent)."""


@dataclass(frozen=True)
class RecallSizes:
    """Members owed a check, the memory probe's smaller size, rounds, queries timed."""

    members: int
    memory_from: int
    settle_seconds: float
    rounds: int
    query_calls: int


FULL = RecallSizes(members=5000, memory_from=500, settle_seconds=60.0, rounds=1,
                   query_calls=200)
QUICK = RecallSizes(members=60, memory_from=20, settle_seconds=30.0, rounds=1, query_calls=20)
FULL_CLOSED = ClosedSizes(members=5000, closed=200_000, rounds=9, calls=20)
QUICK_CLOSED = ClosedSizes(members=60, closed=20_000, rounds=5, calls=10)


def run(quick: bool = False) -> Figures:
    """Live and query rounds on SQLite and PostgreSQL, interleaved; then the smaller rounds."""
    sizes = QUICK if quick else FULL
    url = server_url()
    live: dict[str, list[LiveRound]] = {"": [], SERVER_PREFIX: []}
    queried: dict[str, list[QueryRound]] = {"": [], SERVER_PREFIX: []}
    few: dict[str, LiveRound] = {}
    closed: dict[str, ClosedRound] = {}
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-recall-") as name:
        folder = Path(name)
        template = migrated_template(folder)
        with (scratch_server_database(url) if url else nullcontext() as scratch,
              scratch_server_database(url, "_closed") if url else nullcontext() as second):
            databases: list[tuple[str, Callable[[str], str]]] = [
                ("", lambda kind: sqlite_url(fresh_sqlite(template, folder, kind))),
            ]
            if scratch:
                databases.append((SERVER_PREFIX, lambda _kind: emptied(scratch)))
            many = LiveSizes(sizes.members, sizes.settle_seconds)
            for number in range(sizes.rounds):
                for prefix, fresh in databases:
                    live[prefix].append(live_round(fresh(f"live-{number}"), many, PACE_PER_S))
                for prefix, fresh in databases:
                    probe = query_round(fresh(f"queries-{number}"), sizes.members,
                                        sizes.query_calls)
                    queried[prefix].append(run_service(probe))
            smaller = LiveSizes(sizes.memory_from, sizes.settle_seconds)
            for prefix, fresh in databases:
                few[prefix] = live_round(fresh("memory"), smaller, PACE_PER_S)
            pairs = [("", fresh_sqlite_pair(template, folder))]
            if scratch and second:
                pairs.append((SERVER_PREFIX, (emptied(scratch), second)))
            for prefix, (none_url, closed_url) in pairs:
                probe = closed_round(none_url, closed_url, QUICK_CLOSED if quick else FULL_CLOSED)
                closed[prefix] = run_service(probe)
    figures: Figures = {}
    for prefix in ("", SERVER_PREFIX):
        if live[prefix]:
            figures.update(medians([live_figures(r) for r in live[prefix]], prefix))
            figures.update(medians([query_figures(r) for r in queried[prefix]], prefix))
            figures.update(memory_figures(few[prefix], live[prefix], prefix))
            figures.update(closed[prefix].figures(prefix))
        else:
            figures.update(unmeasured(prefix))
    return figures


def fresh_sqlite_pair(template: Path, folder: Path) -> tuple[str, str]:
    """Two fresh SQLite files: one to stay without closed checks, one to hold them."""
    return (sqlite_url(fresh_sqlite(template, folder, "closed-none")),
            sqlite_url(fresh_sqlite(template, folder, "closed-many")))


def emptied(url: str) -> str:
    """The scratch PostgreSQL database, every table emptied."""
    empty_server_tables(url)
    return url


def live_figures(measured: LiveRound) -> dict[str, float]:
    """One live round's figures: the checks against the pace, lost or doubled; the answers."""
    acked = [seconds * 1000 for seconds in measured.acks if seconds is not None]
    received = {arrival.user_id for arrival in measured.sent}
    stored = measured.stored
    return {
        **send_figures(sorted(arrival.at for arrival in measured.sent)),
        "recall_lost": float(measured.members - len(received)),
        "recall_doubled": float(len(measured.sent) - len(received)),
        "recall_unreachable": float(stored.unreachable),
        "recall_p99_ack_ms": percentile(acked, 99) if acked else float("inf"),
        "recall_p50_ack_ms": percentile(acked, 50) if acked else float("inf"),
        "recall_max_ack_ms": max(acked, default=float("inf")),
        "recall_unacked": float(len(measured.acks) - len(acked)),
        "recall_late_acks": float(sum(ms >= ACK_DEADLINE * 1000 for ms in acked)),
        "recall_answers_lost": float(measured.members * measured.questions - stored.answers),
        "recall_refused": float(measured.refused),
        "recall_shown_elsewhere": float(measured.elsewhere),
        "recall_clicks": float(len(measured.acks)),
        "recall_members": float(measured.members),
        "recall_all_sent_s": (max((a.at for a in measured.sent), default=measured.started_at)
                              - measured.started_at),
    }


def send_figures(times: Sequence[float]) -> dict[str, float]:
    """How the checks went out (moments they reached the platform, in order) against the pace.

    A tick is a run of sends less than `TICK_GAP` apart. The average rate leaves out the
    first pace's worth, which may go at once: the sends after the `DEFAULT_PACE`-th, over the
    time from it to the last.
    """
    ticks = ticks_of(times)
    if not ticks:
        return dict.fromkeys(SEND_FIGURES, 0.0)
    in_a_second = most_in_window(times, TIMER_INTERVAL)
    paced = times[DEFAULT_PACE - 1:]
    between = paced[-1] - paced[0] if paced else 0.0
    per_s = (len(paced) - 1) / between if between > 0 else float(len(times))
    return {
        "recall_sent": float(len(times)),
        "recall_pace": float(DEFAULT_PACE),
        "recall_ticks": float(len(ticks)),
        "recall_sends_per_tick_max": float(max(len(tick) for tick in ticks)),
        "recall_sends_per_tick_median": median([float(len(tick)) for tick in ticks]),
        "recall_tick_ms_median": median([(tick[-1] - tick[0]) * 1000 for tick in ticks]),
        "recall_tick_ms_max": max((tick[-1] - tick[0]) * 1000 for tick in ticks),
        "recall_sends_in_1s_max": float(in_a_second),
        "recall_pace_ratio": in_a_second / PACE_PER_S,
        "recall_sends_per_s": per_s,
        "recall_pace_kept": per_s / PACE_PER_S,
        "recall_send_s": times[-1] - times[0],
    }


def ticks_of(times: Sequence[float]) -> list[list[float]]:
    """Moments in order, grouped into ticks: a gap over `TICK_GAP` starts the next one."""
    ticks: list[list[float]] = []
    for at in times:
        if ticks and at - ticks[-1][-1] <= TICK_GAP:
            ticks[-1].append(at)
        else:
            ticks.append([at])
    return ticks


def query_figures(measured: QueryRound) -> dict[str, float]:
    """One query round's figures: planning, and p50 and p99 of each kind of call."""
    return {
        "recall_plan_ms": measured.plan_ms,
        "recall_due_p99_ms": percentile(measured.due_ms, 99),
        "recall_due_p50_ms": percentile(measured.due_ms, 50),
        "recall_open_check_p99_ms": percentile(measured.open_ms, 99),
        "recall_open_check_p50_ms": percentile(measured.open_ms, 50),
        "recall_query_checks": float(measured.checks),
    }


def memory_figures(few: LiveRound, many: Sequence[LiveRound], prefix: str) -> Figures:
    """The bot's RSS at the end of the smaller round and of the full ones (median), the ratio."""
    more = median([measured.rss_mb for measured in many])
    return {
        f"{prefix}recall_rss_mb_few": few.rss_mb,
        f"{prefix}recall_rss_mb_many": more,
        f"{prefix}recall_rss_members_few": float(few.members),
        f"{prefix}recall_rss_members_many": float(many[0].members),
        f"{prefix}recall_rss_ratio": more / few.rss_mb,
    }


def medians(per_round: Sequence[dict[str, float]], prefix: str) -> Figures:
    """The median over rounds of each figure, named with the database's prefix."""
    figures: Figures = {
        f"{prefix}{name}": median([one[name] for one in per_round]) for name in per_round[0]
    }
    figures[f"{prefix}recall_rounds"] = float(len(per_round))
    return figures


def unmeasured(prefix: str) -> Figures:
    """PostgreSQL's figures when no server is configured: a note instead."""
    return {f"{prefix}recall": f"not measured: {SERVER_URL_VARIABLE} is not set"}
