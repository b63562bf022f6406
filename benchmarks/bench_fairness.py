"""Fair checking: another member's `3/4` beside a flood from one member or a crowd of slow answers.

Through the real engine, store (a fresh migrated SQLite file) and answer checker as the bot runs
it (`bot.process.runtime.bot_checker` with the default settings: 2 workers, 2 s timeout, a queue
of 32, 0.25 s turns). Each round times the victim's answer in three scenarios, in an order that
rotates between rounds: quiet (alone), flood (one member sends a slow answer 50 times a second)
and crowd (six members each send one slow answer first). Figures are medians over the rounds,
and ratios of those medians against the quiet one of the same rounds.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.databases import fresh_sqlite, migrated_template, sqlite_url
from benchmarks.lesson_setup import HOST, channel
from benchmarks.timing import elapsed_ms
from bot.engine import LessonCatalog, LessonEngine
from bot.model import CheckerFailed, CheckInFlight, LessonBotError, Member
from bot.process.runtime import bot_checker
from bot.settings import Settings
from bot.verifier import Checker
from storage import SqlRunStore, open_database

SLOW_ANSWER = "(a+b+c+d+e+f+g)^200"
"""The issue's example: allowed by the parser, and far slower than the timeout to expand."""
VICTIM_ANSWER = "3/4"
FLOOD_PER_SECOND = 50
CROWD = 6
FULL_ROUNDS = 5
QUICK_ROUNDS = 1
SETTLE_SECONDS = 30.0
_POLL_SECONDS = 0.005


@dataclass
class Arena:
    """The engine at an open free-answer question, its checker, and what hostile members got."""

    engine: LessonEngine
    checker: Checker
    run_id: int
    step_id: str
    workers: int
    outcomes: Counter[str]

    async def answer(self, member: Member, text: str) -> None:
        """One answer, its outcome counted by kind (graded, in flight, busy, refused)."""
        try:
            await self.engine.submit_answer(self.run_id, self.step_id, member, text)
            self.outcomes["graded"] += 1
        except CheckInFlight:
            self.outcomes["in_flight"] += 1
        except CheckerFailed:
            self.outcomes["busy"] += 1
        except LessonBotError:
            self.outcomes["refused"] += 1

    async def victim_ms(self, name: str) -> float:
        """How long another member's correct answer takes to be graded and stored."""
        started = time.perf_counter()
        receipt = await self.engine.submit_answer(
            self.run_id, self.step_id, Member(name, name), VICTIM_ANSWER
        )
        assert receipt.reward == 1, receipt.text
        return elapsed_ms(started)

    async def until(self, condition: Callable[[], bool]) -> None:
        """Wait (with a deadline) until a condition on the checker holds."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError("the checker did not reach the expected state in time")
            await asyncio.sleep(_POLL_SECONDS)

    async def settled(self) -> None:
        """Every worker (replacements included) idle, nothing waiting or in flight."""
        await self.until(
            lambda: self.checker.idle_workers == self.workers and self.checker.waiting_checks == 0
            and self.engine.members.turns.in_flight() == 0
        )


Scenario = Callable[[Arena, int], Awaitable[float]]


async def quiet(arena: Arena, round_no: int) -> float:
    """The victim alone."""
    return await arena.victim_ms(f"victim-quiet-{round_no}")


async def flood(arena: Arena, round_no: int) -> float:
    """One member sends a slow answer 50 times a second while the victim answers."""
    flooder = Member(f"flooder-{round_no}", "Flooder")
    sending: set[asyncio.Task[None]] = set()

    async def keep_sending() -> None:
        while True:
            sending.add(asyncio.create_task(arena.answer(flooder, SLOW_ANSWER)))
            await asyncio.sleep(1 / FLOOD_PER_SECOND)

    sender = asyncio.create_task(keep_sending())
    await arena.until(lambda: arena.checker.idle_workers < arena.workers)
    try:
        return await arena.victim_ms(f"victim-flood-{round_no}")
    finally:
        sender.cancel()
        await asyncio.gather(sender, *sending, return_exceptions=True)


async def crowd(arena: Arena, round_no: int) -> float:
    """Six members each send one slow answer; the victim answers once all six are in."""
    members = [Member(f"crowd-{round_no}-{n}", f"Crowd {n}") for n in range(CROWD)]
    answers = [asyncio.create_task(arena.answer(m, SLOW_ANSWER)) for m in members]
    await arena.until(
        lambda: arena.checker.idle_workers == 0
        and arena.checker.waiting_checks == CROWD - arena.workers
    )
    try:
        return await arena.victim_ms(f"victim-crowd-{round_no}")
    finally:
        await asyncio.gather(*answers)


SCENARIOS: dict[str, Scenario] = {"quiet": quiet, "flood": flood, "crowd": crowd}


def run(quick: bool = False) -> dict[str, float]:
    """Measure the victim's latency in every scenario; return the figures."""
    with tempfile.TemporaryDirectory(prefix="bench-fairness-") as directory:
        template = migrated_template(Path(directory))
        fair = sqlite_url(fresh_sqlite(template, Path(directory), "fair.db"))
        fifo = sqlite_url(fresh_sqlite(template, Path(directory), "fifo.db"))
        rounds = QUICK_ROUNDS if quick else FULL_ROUNDS
        return asyncio.run(_measure(fair, rounds, None if quick else fifo))


async def _measure(url: str, rounds: int, fifo_url: str | None) -> dict[str, float]:
    """The rounds on the bot's checker; then, unless quick, the crowd once on a plain FIFO one."""
    async with bot_checker(Settings(_env_file=None)) as checker:  # type: ignore[call-arg]
        timings, outcomes = await _rounds(url, checker, rounds)
    figures = _figures(timings, outcomes, rounds)
    if fifo_url is not None:
        async with Checker() as unfair:
            fifo, _ = await _rounds(fifo_url, unfair, 1, {"crowd": crowd})
        figures["fair_crowd_fifo_ms"] = fifo["crowd"][0]
    return figures


async def _rounds(
    url: str, checker: Checker, rounds: int, scenarios: dict[str, Scenario] = SCENARIOS
) -> tuple[dict[str, list[float]], Counter[str]]:
    """Each scenario once per round, in an order that rotates from round to round."""
    database = open_database(url)
    try:
        arena = await _arena(SqlRunStore(database), checker)
        timings: dict[str, list[float]] = {name: [] for name in scenarios}
        names = list(scenarios)
        for round_no in range(rounds):
            shift = round_no % len(names)
            for name in names[shift:] + names[:shift]:
                await arena.settled()
                timings[name].append(await scenarios[name](arena, round_no))
        await arena.settled()
        return timings, arena.outcomes
    finally:
        await database.dispose()


async def _arena(store: SqlRunStore, checker: Checker) -> Arena:
    """The real engine at the lesson's free-answer question, with a warm checker."""
    engine = LessonEngine(store, checker, LessonCatalog(), max_tries=50)
    card = await engine.start(channel(1), HOST)
    while card.kind != "free_answer":
        advance = await engine.advance(card.run_id, HOST)
        assert advance.card is not None, "the default lesson has no free-answer question"
        card = advance.card
    return Arena(engine, checker, card.run_id, card.step_id, checker.idle_workers, Counter())


def _figures(
    timings: dict[str, list[float]], outcomes: Counter[str], rounds: int
) -> dict[str, float]:
    quiet_ms = statistics.median(timings["quiet"])
    figures = {"fair_quiet_ms": quiet_ms}
    for name in ("flood", "crowd"):
        median_ms = statistics.median(timings[name])
        figures[f"fair_{name}_ms"] = median_ms
        figures[f"fair_{name}_max_ms"] = max(timings[name])
        figures[f"fair_{name}_ratio"] = median_ms / quiet_ms
    figures["fair_bound_ms"] = Settings(_env_file=None).checker_timeout * 1000  # type: ignore[call-arg]
    figures["fair_hostile_in_flight"] = float(outcomes["in_flight"])
    figures["fair_hostile_busy"] = float(outcomes["busy"])
    figures["fair_hostile_graded"] = float(outcomes["graded"])
    figures["fair_rounds"] = float(rounds)
    return figures
