"""A peer round at scale: 1,000 members answer with reasons live; reasons chosen from 10,000.

Live (`peer_live`): the real Discord bot in a process of its own against the fake Discord; a
host moves a run to the lesson's peer round, then every member clicks a choice, opens the
reason form and submits a sentence, in three waves each spread over about a second. Figures:
the acknowledgements of the answering path (the choice click and the form's submission), the
form's opening on its own, and what was stored: every answer and reason exactly once.

Selection (`peer_reasons`): `reasons_to_show` at a peer round holding 10,000 reasons, one call
at a time, as a member's own turn and as the discussion thread ask it.

Rounds alternate between a fresh SQLite file and the scratch PostgreSQL database (when
TEST_DATABASE_URL is set); each figure is the median over its database's rounds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from benchmarks.burst_record import ACK_DEADLINE, Figures
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from benchmarks.peer_live import LiveRound, LiveSizes, live_round
from benchmarks.peer_reasons import ShowRound, show_round
from benchmarks.timing import median, percentile
from bot.process.event_loop import run_service
from fakes.server_database import empty_server_tables

SERVER_PREFIX = "pg_"


@dataclass(frozen=True)
class PeerSizes:
    """Members answering live, reasons stored for the selection, calls timed, rounds."""

    live: LiveSizes
    reasons: int
    show_calls: int
    rounds: int


FULL = PeerSizes(LiveSizes(members=1000, seconds=1.0, settle_seconds=60.0), reasons=10_000,
                 show_calls=300, rounds=3)
QUICK = PeerSizes(LiveSizes(members=60, seconds=0.25, settle_seconds=30.0), reasons=500,
                  show_calls=30, rounds=1)


def run(quick: bool = False) -> Figures:
    """Live and selection rounds on SQLite and PostgreSQL, interleaved; the median figures."""
    sizes = QUICK if quick else FULL
    url = server_url()
    live: dict[str, list[LiveRound]] = {"": [], SERVER_PREFIX: []}
    shown: dict[str, list[ShowRound]] = {"": [], SERVER_PREFIX: []}
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-peer-") as name:
        folder = Path(name)
        template = migrated_template(folder)
        with scratch_server_database(url) if url else nullcontext() as scratch:
            for number in range(sizes.rounds):
                databases: list[tuple[str, Callable[[str], str]]] = [
                    ("", lambda kind: sqlite_url(fresh_sqlite(template, folder, kind))),
                ]
                if scratch:
                    databases.append((SERVER_PREFIX, lambda _kind: emptied(scratch)))
                for prefix, fresh in databases:
                    live[prefix].append(live_round(fresh(f"live-{number}"), sizes.live))
                for prefix, fresh in databases:
                    selection = show_round(fresh(f"show-{number}"), sizes.reasons,
                                           sizes.show_calls)
                    shown[prefix].append(run_service(selection))
    figures: Figures = {}
    for prefix in ("", SERVER_PREFIX):
        if live[prefix]:
            figures.update(medians([live_figures(r) for r in live[prefix]], prefix))
            figures.update(medians([show_figures(r) for r in shown[prefix]], prefix))
        else:
            figures.update(unmeasured(prefix))
    return figures


def emptied(url: str) -> str:
    """The scratch PostgreSQL database, every table emptied."""
    empty_server_tables(url)
    return url


def live_figures(measured: LiveRound) -> dict[str, float]:
    """One live round's figures: acknowledgements, forms opened, answers and reasons stored."""
    answering = [*measured.choose_acks, *measured.reason_acks]
    acked = acked_ms(answering)
    why = acked_ms(measured.why_acks)
    stored = measured.stored
    return {
        "peer_p99_ack_ms": p99(acked),
        "peer_choose_p99_ack_ms": p99(acked_ms(measured.choose_acks)),
        "peer_reason_p99_ack_ms": p99(acked_ms(measured.reason_acks)),
        "peer_p50_ack_ms": percentile(acked, 50) if acked else float("inf"),
        "peer_unacked": float(len(answering) - len(acked)),
        "peer_late_acks": float(late(acked)),
        "peer_why_p99_ack_ms": p99(why),
        "peer_why_p50_ack_ms": percentile(why, 50) if why else float("inf"),
        "peer_why_max_ack_ms": max(why, default=float("inf")),
        "peer_why_missed": float(len(measured.why_acks) - measured.forms_opened),
        "peer_lost": float(stored.answers_lost + stored.reasons_lost),
        "peer_answers_lost": float(stored.answers_lost),
        "peer_reasons_lost": float(stored.reasons_lost),
        "peer_doubled": float(stored.doubled),
        "peer_reasons_wrong": float(stored.reasons_wrong),
        "peer_members": float(len(measured.choose_acks)),
    }


def show_figures(measured: ShowRound) -> dict[str, float]:
    """One selection round's figures: p50 and p99 of each kind of call."""
    return {
        "peer_show_p99_ms": percentile(measured.member_ms, 99),
        "peer_show_p50_ms": percentile(measured.member_ms, 50),
        "peer_show_thread_p99_ms": percentile(measured.discussion_ms, 99),
        "peer_show_thread_p50_ms": percentile(measured.discussion_ms, 50),
        "peer_show_reasons": float(measured.reasons),
        "peer_show_calls": float(len(measured.member_ms)),
    }


def medians(per_round: Sequence[dict[str, float]], prefix: str) -> Figures:
    """The median over rounds of each figure, named with the database's prefix."""
    figures: Figures = {
        f"{prefix}{name}": median([one[name] for one in per_round]) for name in per_round[0]
    }
    figures[f"{prefix}peer_rounds"] = float(len(per_round))
    return figures


def acked_ms(acks: Sequence[float | None]) -> list[float]:
    """The acknowledgements that came, in ms."""
    return [seconds * 1000 for seconds in acks if seconds is not None]


def p99(acked: Sequence[float]) -> float:
    """The p99 of some acknowledgements (infinite when none came)."""
    return percentile(acked, 99) if acked else float("inf")


def late(acked: Sequence[float]) -> int:
    """Acknowledgements that took Discord's whole window or more."""
    return sum(ms >= ACK_DEADLINE * 1000 for ms in acked)


def unmeasured(prefix: str) -> Figures:
    """PostgreSQL's figures when no server is configured: a note instead."""
    return {f"{prefix}peer": f"not measured: {SERVER_URL_VARIABLE} is not set"}
