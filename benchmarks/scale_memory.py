"""Memory with many runs active in one process, measured in a fresh subprocess.

The child (``python -m benchmarks.scale_memory DATABASE RUNS ANSWERS``) notes its resident
memory after imports and loading the lesson, starts RUNS runs in as many channels through the
engine with ANSWERS answers each, keeps them all open, and prints its figures as JSON.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from benchmarks.lesson_setup import channel, choice_for, lesson_engine, member, open_prediction
from bot.engine import LessonEngine
from bot.model import LessonBotError
from storage import SqlRunStore, open_database

CONCURRENCY = 4
STATUS_FILE = Path("/proc/self/status")
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def rss_mb(field: str = "VmRSS") -> float:
    """This process's resident memory (or its peak, with `VmHWM`) in MiB."""
    for line in STATUS_FILE.read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} is not in {STATUS_FILE}")


async def start_run(
    engine: LessonEngine, gate: asyncio.Semaphore, number: int, answers: int
) -> int:
    """Open run `number` at its first question, have `answers` members answer; count refusals."""
    async with gate:
        question = await open_prediction(engine, channel(number))
        failed = 0
        for offset in range(answers):
            who = number * answers + offset
            try:
                await engine.choose(question.run_id, question.step.id, member(who),
                                    choice_for(question, who))
            except LessonBotError:
                failed += 1
        return failed


async def fill(url: str, runs: int, answers: int) -> dict[str, float]:
    """Memory before and after `runs` active runs, all kept open while measuring."""
    database = open_database(url)
    try:
        engine = lesson_engine(SqlRunStore(database))
        engine.catalog.get()
        baseline = rss_mb()
        gate = asyncio.Semaphore(CONCURRENCY)
        failed = await asyncio.gather(*(start_run(engine, gate, n, answers) for n in range(runs)))
        return {"baseline_mb": baseline, "total_mb": rss_mb(), "peak_mb": rss_mb("VmHWM"),
                "failed": float(sum(failed))}
    finally:
        await database.dispose()


def measure(url: str, runs: int, answers: int) -> dict[str, float]:
    """Run the child in a fresh interpreter and return its figures."""
    command = [sys.executable, "-m", __name__, url, str(runs), str(answers)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=PROJECT_ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"the memory benchmark failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    """The child process: fill one database with runs and print the memory figures."""
    url, runs, answers = argv[0], int(argv[1]), int(argv[2])
    print(json.dumps(asyncio.run(fill(url, runs, answers))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
