"""One quick run of every benchmark, shared by the tests that read its figures.

Under pytest-xdist the workers share it too: the first to need it runs it while holding a lock
in the run's common temporary folder, and the others wait for its file and read it.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUICK_RUN_TIMEOUT = 600
"""Seconds the quick run may take; a test that waits for it may wait as long, and a little more."""
QuickRun = tuple[str, dict[str, object]]
Figures = dict[str, float | str | None]
quick_run_waits = pytest.mark.timeout(QUICK_RUN_TIMEOUT + 60)
"""For the tests that read the quick run: the first to ask waits for the whole run."""


def shared_folder(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A folder every worker of this test run sees (this process's own without xdist)."""
    if worker_id == "master":
        return tmp_path_factory.mktemp("bench")
    return tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> QuickRun:
    """`python -m benchmarks --quick` run once per test run: its printed table and its JSON."""
    folder = shared_folder(tmp_path_factory, worker_id)
    output, printed = folder / "bench-results.json", folder / "bench-printed.txt"
    with (folder / "bench.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not output.exists():
            own = tmp_path_factory.mktemp("bench") / "results.json"
            command = [sys.executable, "-m", "benchmarks", "--quick", "--output", str(own)]
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                                  timeout=QUICK_RUN_TIMEOUT)
            assert done.returncode == 0, done.stderr[-4000:]
            printed.write_text(done.stdout)
            own.replace(output)  # last: the others read a run only once it passed
    return printed.read_text(), json.loads(output.read_text())


@pytest.fixture(scope="session")
def quick_figures(quick_run: QuickRun) -> Figures:
    """Every figure of that quick run, by key (PostgreSQL's start with `pg_`)."""
    return {
        key: value
        for key, value in quick_run[1].items()
        if value is None or isinstance(value, float | str)
    }
