"""The vote path against the storage limit: clicks through the engine, the store, the driver.

Every member answers one prediction question of the real lesson once, `concurrency` at a
time, as an adapter would run clicks. Three paths on fresh databases, in the same run:
`engine.choose` (what a click costs), `store.record_vote` (the upsert alone) and a raw driver
upsert of the same rows (the storage limit). Rates are compared as ratios to the raw path.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import raw_votes
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    plain_dsn,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from benchmarks.timing import Burst, combine
from benchmarks.vote_paths import (
    ENGINE_PATH,
    STORE_PATH,
    TRAFFIC_NAMES,
    orm_burst,
    traffic_per_click,
)
from fakes.server_database import empty_server_tables

Figures = dict[str, float | str | None]
BurstFor = Callable[[str, int], Coroutine[Any, Any, Burst]]
RAW_PATH = "raw"
PATHS = (ENGINE_PATH, STORE_PATH, RAW_PATH)
SQLITE_CONNECTIONS = 15
"""The pool SQLAlchemy gives an SQLite file (5 plus 10 overflow); the raw path gets as many."""
POSTGRES_CONNECTIONS = 30
"""The pool `storage.open_database` gives PostgreSQL (10 plus 20 overflow)."""
SUMMARY_NAMES = (
    "vote_path_ratio", "vote_p99_ms", "vote_p50_ms", "vote_engine_per_s",
    "vote_store_ratio", "vote_store_per_s", "vote_store_p99_ms",
    "vote_raw_per_s", "vote_raw_p99_ms", "vote_errors", "vote_error_kinds",
)


@dataclass(frozen=True)
class VoteSizes:
    """How big a vote benchmark is."""

    members: int
    concurrency: int
    rounds: int
    server_rounds: int


FULL = VoteSizes(members=2000, concurrency=64, rounds=2, server_rounds=1)
QUICK = VoteSizes(members=200, concurrency=32, rounds=1, server_rounds=1)


def run(quick: bool = False) -> Figures:
    """Measure the vote path on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-") as directory:
        figures = sqlite_figures(Path(directory), sizes)
    url = server_url()
    figures.update(postgres_figures(url, sizes) if url else unmeasured("pg_"))
    return figures


def measure_rounds(count: int, burst_for: BurstFor) -> dict[str, list[Burst]]:
    """Every path once per round, starting with a different path each round."""
    rounds: dict[str, list[Burst]] = {path: [] for path in PATHS}
    for number in range(count):
        shift = number % len(PATHS)
        for path in PATHS[shift:] + PATHS[:shift]:
            rounds[path].append(asyncio.run(burst_for(path, number)))
    return rounds


def sqlite_figures(directory: Path, sizes: VoteSizes) -> Figures:
    """All three paths on fresh SQLite files (WAL, synchronous=NORMAL)."""
    template = migrated_template(directory)

    def burst_for(path: str, number: int) -> Coroutine[Any, Any, Burst]:
        file = fresh_sqlite(template, directory, f"{path}-{number}")
        if path == RAW_PATH:
            rows = raw_votes.vote_rows(sizes.members)
            return raw_votes.sqlite_burst(file, rows, sizes.concurrency, SQLITE_CONNECTIONS)
        return orm_burst(sqlite_url(file), path, sizes.members, sizes.concurrency)

    rounds = measure_rounds(sizes.rounds, burst_for)
    traffic = traffic_per_click(sqlite_url(fresh_sqlite(template, directory, "traffic")))
    return {**summarise("", rounds), **asyncio.run(traffic)}


def postgres_figures(url: str, sizes: VoteSizes) -> Figures:
    """All three paths on a scratch PostgreSQL database, emptied before every burst."""
    with scratch_server_database(url) as scratch:

        def burst_for(path: str, _number: int) -> Coroutine[Any, Any, Burst]:
            empty_server_tables(scratch)
            if path == RAW_PATH:
                rows = raw_votes.vote_rows(sizes.members)
                return raw_votes.postgres_burst(plain_dsn(scratch), rows, sizes.concurrency,
                                                POSTGRES_CONNECTIONS)
            return orm_burst(scratch, path, sizes.members, sizes.concurrency)

        rounds = measure_rounds(sizes.server_rounds, burst_for)
        traffic = asyncio.run(traffic_per_click(scratch))
    return {**summarise("pg_", rounds), **{f"pg_{k}": v for k, v in traffic.items()}}


def summarise(prefix: str, rounds: dict[str, list[Burst]]) -> Figures:
    """The figures of one database: rates, latencies, ratios to the raw path, failures."""
    engine, store, raw = (combine(rounds[path]) for path in PATHS)
    values: tuple[float | str, ...] = (
        engine.rate / raw.rate, engine.p99_ms, engine.p50_ms, engine.rate,
        store.rate / raw.rate, store.rate, store.p99_ms,
        raw.rate, raw.p99_ms, float(engine.errors + store.errors + raw.errors),
        describe_errors(engine, store, raw),
    )
    return {prefix + name: value for name, value in zip(SUMMARY_NAMES, values, strict=True)}


def describe_errors(*bursts: Burst) -> str:
    """Which failures each path met, or an empty string when none failed."""
    named = (f"{path}: {kind} x{count}" for path, measured in zip(PATHS, bursts, strict=True)
             for kind, count in measured.error_kinds.items())
    return "; ".join(named)


def unmeasured(prefix: str) -> Figures:
    """A database's figures as nulls, with a note saying why."""
    figures: Figures = {prefix + name: None for name in SUMMARY_NAMES + TRAFFIC_NAMES}
    figures[f"{prefix}votes"] = f"not measured: {SERVER_URL_VARIABLE} is not set"
    return figures
