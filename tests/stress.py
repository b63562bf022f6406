"""Run the suite several times beside busy loops, to find tests that depend on the machine's speed.

``make test-stress`` (or ``python -m tests.stress --rounds 3 --loops 2``) starts ``--loops`` shell
busy loops that keep cores saturated, runs the whole suite ``--rounds`` times while they spin, and
prints each round's outcome and failing tests. It exits non-zero if any round failed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

BUSY_LOOP = ("sh", "-c", "while :; do :; done")
FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """Keep `count` shell loops spinning while the body runs, and stop them afterwards."""
    loops = [subprocess.Popen(BUSY_LOOP) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()


def run_suite(pytest_args: Sequence[str]) -> tuple[int, list[str], float]:
    """Run the suite once; return its exit status, its failing tests and its seconds."""
    started = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *pytest_args]
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    sys.stdout.write(finished.stdout[-3000:])
    return finished.returncode, FAILED_LINE.findall(finished.stdout), time.monotonic() - started


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rounds and report; 0 only if every round passed."""
    parser = argparse.ArgumentParser(prog="python -m tests.stress", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="how many times to run the suite")
    parser.add_argument("--loops", type=int, default=2, help="busy loops spinning beside it")
    options, pytest_args = parser.parse_known_args(argv)
    failures: dict[int, list[str]] = {}
    with busy_loops(options.loops):
        for round_number in range(1, options.rounds + 1):
            status, failed, seconds = run_suite(pytest_args)
            print(f"== round {round_number}/{options.rounds}: exit {status}, {seconds:.0f} s, "
                  f"{len(failed)} failed, beside {options.loops} busy loops", flush=True)
            if status != 0:
                failures[round_number] = failed or [f"pytest exit {status}"]
    for round_number, failed in failures.items():
        print(f"round {round_number} failed: " + ", ".join(failed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
