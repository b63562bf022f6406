"""Profile the vote path with cProfile: ``python -m benchmarks.profile_votes [--path store]``.

Prints the functions where clicks spend their time and the time per store method, so a slow
vote path can be traced to its queries. ``--server`` profiles on PostgreSQL (TEST_DATABASE_URL).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from benchmarks.lesson_setup import lesson_engine
from benchmarks.store_probe import TimedStore
from benchmarks.timing import burst
from benchmarks.vote_paths import vote_operations, warm_up
from storage import SqlRunStore, open_database


async def profiled_clicks(url: str, path: str, members: int, concurrency: int) -> TimedStore:
    """Run one burst of clicks under cProfile, printing the hottest functions."""
    database = open_database(url)
    try:
        timed = TimedStore(SqlRunStore(database))
        engine = lesson_engine(cast(SqlRunStore, timed))
        await warm_up(engine)
        operations = await vote_operations(engine, path, members)
        timed.totals.clear()
        timed.calls.clear()
        profile = cProfile.Profile()
        profile.enable()
        await burst(operations, concurrency)
        profile.disable()
    finally:
        await database.dispose()
    pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    return timed


@contextmanager
def scratch_url(server: bool) -> Iterator[str]:
    """A fresh migrated database: a scratch one on the server, or an SQLite file."""
    url = server_url()
    if server:
        if url is None:
            raise SystemExit(f"--server needs {SERVER_URL_VARIABLE}")
        with scratch_server_database(url) as scratch:
            yield scratch
        return
    with tempfile.TemporaryDirectory(prefix="lessonbot-profile-") as name:
        directory = Path(name)
        yield sqlite_url(fresh_sqlite(migrated_template(directory), directory, "profile"))


def main(argv: list[str] | None = None) -> int:
    """Profile one burst and print the time per store method."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--path", choices=("engine", "store"), default="engine")
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--server", action="store_true",
                        help=f"on a scratch database of {SERVER_URL_VARIABLE} (PostgreSQL)")
    args = parser.parse_args(argv)
    with scratch_url(args.server) as url:
        timed = asyncio.run(profiled_clicks(url, args.path, args.members, args.concurrency))
    for name, ms in timed.per_operation(args.members).items():
        print(f"{name:>24}: {ms:8.2f} ms per click ({timed.calls[name]} calls)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
