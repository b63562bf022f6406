"""A burst of clicks end to end: 2,000 members answer one question within about a second.

Discord: the real discord.py client against the fake Discord (`burst_discord`). Slack: the
real bolt app in HTTP mode against the fake Slack Web API, sent signed requests
(`burst_slack`). Each bot runs in a process of its own. Three rounds per platform (one in
quick mode), each on a fresh migrated SQLite file, and again on a scratch PostgreSQL database
when TEST_DATABASE_URL is set; the round with the median p99 ack gives the figures, and
`burst_p99_ack_ms_max` is the worst round's. The live counters keep their default interval.
Figures: acknowledgement latency, clicks lost (sent but not stored), and the most edits of the
question message in any 2 seconds. Discord's are the headline keys; Slack's start `slack_`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.burst_discord import run_discord_burst
from benchmarks.burst_record import (
    FIGURE_NAMES,
    BurstRecord,
    BurstSizes,
    Figures,
    median_round,
    prefixed,
)
from benchmarks.burst_slack import run_slack_burst
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from fakes.server_database import empty_server_tables

Burst = Callable[[str, BurstSizes], BurstRecord]
FreshDatabase = Callable[[str], str]
PLATFORMS: tuple[tuple[str, Burst], ...] = (("", run_discord_burst), ("slack_", run_slack_burst))
"""Each platform's figure prefix and its burst."""
SERVER_PREFIX = "pg_"
FULL = BurstSizes(clicks=2000, seconds=1.0, connections=2000, settle_seconds=60.0, rounds=3)
QUICK = BurstSizes(clicks=100, seconds=0.25, connections=20, settle_seconds=30.0)


def run(quick: bool = False) -> Figures:
    """Burst both platforms on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-") as name:
        figures = sqlite_figures(Path(name), sizes)
    url = server_url()
    figures.update(postgres_figures(url, sizes) if url else unmeasured(SERVER_PREFIX))
    return figures


def every_platform(fresh: FreshDatabase, sizes: BurstSizes, prefix: str = "") -> Figures:
    """`sizes.rounds` bursts per platform, each on a fresh database; the median round's figures."""
    figures: Figures = {}
    for platform, burst in PLATFORMS:
        names = (f"{platform or 'discord_'}{number}" for number in range(sizes.rounds))
        records = [burst(fresh(name), sizes) for name in names]
        figures.update(prefixed(median_round(records), prefix + platform))
    return figures


def sqlite_figures(directory: Path, sizes: BurstSizes) -> Figures:
    """Both platforms, each on its own copy of a migrated SQLite file."""
    template = migrated_template(directory)

    def fresh(name: str) -> str:
        return sqlite_url(fresh_sqlite(template, directory, f"burst-{name}"))

    return every_platform(fresh, sizes)


def postgres_figures(url: str, sizes: BurstSizes) -> Figures:
    """Both platforms on a scratch PostgreSQL database, emptied before each burst."""
    with scratch_server_database(url) as scratch:

        def fresh(_name: str) -> str:
            empty_server_tables(scratch)
            return scratch

        return every_platform(fresh, sizes, SERVER_PREFIX)


def unmeasured(prefix: str) -> Figures:
    """The figures of a database that was not measured: nulls, with a note saying why."""
    names = [prefix + platform + name for platform, _ in PLATFORMS for name in FIGURE_NAMES]
    figures: Figures = dict.fromkeys(names)
    figures[f"{prefix}burst"] = f"not measured: {SERVER_URL_VARIABLE} is not set"
    return figures
