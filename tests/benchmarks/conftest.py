"""One quick run of every benchmark, shared by the tests that read its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QuickRun = tuple[str, dict[str, object]]
Figures = dict[str, float | str | None]


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> QuickRun:
    """`python -m benchmarks --quick` run once: its printed table and its JSON document."""
    output = tmp_path_factory.mktemp("bench") / "results.json"
    command = [sys.executable, "-m", "benchmarks", "--quick", "--output", str(output)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout, json.loads(output.read_text())


@pytest.fixture(scope="session")
def quick_figures(quick_run: QuickRun) -> Figures:
    """Every figure of that quick run, by key (PostgreSQL's start with `pg_`)."""
    return {
        key: value
        for key, value in quick_run[1].items()
        if value is None or isinstance(value, float | str)
    }
