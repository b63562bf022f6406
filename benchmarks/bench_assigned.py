"""An assignment taken at once: 1,000 members click through their own private steps together.

The real Discord bot runs in a process of its own against the fake Discord. A host assigns the
lesson; then every member, in four waves each spread over about a second, presses Start on the
card, then in their own private message (which each click edits) their Next, a choice at the
first question, and Next again. Each wave waits for every private
reply before the next begins, since each member's next click needs the step the last one gave.
Rounds alternate between SQLite and PostgreSQL (when TEST_DATABASE_URL is set); each figure is
the median of its database's rounds.

Figures: the p99 acknowledgement over every click, clicks never acknowledged, answers lost
(chosen but not stored), members whose pass is not where their clicks took it, and the most
edits of the assignment card in any 2 seconds. Memory: the bot's RSS once 100 members have
started, and once 5,000 have (the ratio should stay near 1: progress lives in the database).
Both readings follow waves of 1,000 clicks (the first 100 members press Start ten times each),
since a process keeps the memory its busiest moment took.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.burst_discord_app import bot_process
from benchmarks.burst_discord_host import run_of
from benchmarks.burst_record import ACK_DEADLINE, Figures, most_in_window
from benchmarks.burst_timing import paced, without_collector_pauses
from benchmarks.burst_world import first_question, store_on
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)
from benchmarks.timing import median, percentile
from bot.engine import Action, Address, LessonCatalog
from bot.process.event_loop import run_service
from fakes.discord_processes import BotProcess
from fakes.fake_discord import CHANNEL_ID, FakeDiscord, FakeUser, SentInteraction
from fakes.server_database import empty_server_tables
from lessons.schema import PredictionStep

Message = dict[str, Any]
Click = Callable[[FakeUser, int], str]
"""The custom_id a member (by number) clicks in a wave."""


@dataclass(frozen=True)
class Sizes:
    """How many members click, how fast, and the memory probe's two sizes."""

    members: int
    seconds: float
    settle_seconds: float
    rounds: int
    memory_from: int
    memory_to: int


FULL = Sizes(members=1000, seconds=1.0, settle_seconds=120.0, rounds=3,
             memory_from=100, memory_to=5000)
QUICK = Sizes(members=60, seconds=0.25, settle_seconds=60.0, rounds=1,
              memory_from=20, memory_to=120)


@dataclass(frozen=True)
class Round:
    """What one round measured."""

    acks: list[float | None]
    lost: int
    misplaced: int
    card_edit_times: list[float]


def run(quick: bool = False) -> Figures:
    """Rounds on SQLite and PostgreSQL, interleaved; then the memory probe on SQLite."""
    sizes = QUICK if quick else FULL
    url = server_url()
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-assigned-") as name:
        folder = Path(name)
        template = migrated_template(folder)
        rounds: dict[str, list[Round]] = {"": [], "pg_": []}
        with scratch_server_database(url) if url else nullcontext() as scratch:
            for number in range(sizes.rounds):
                fresh = sqlite_url(fresh_sqlite(template, folder, f"assigned-{number}"))
                rounds[""].append(run_service(assignment_round(fresh, sizes)))
                if scratch:
                    empty_server_tables(scratch)
                    rounds["pg_"].append(run_service(assignment_round(scratch, sizes)))
        memory = sqlite_url(fresh_sqlite(template, folder, "assigned-memory"))
        figures = memory_figures(*run_service(memory_probe(memory, sizes)), sizes)
    for prefix, measured in rounds.items():
        figures.update(round_figures(measured, prefix) if measured else unmeasured(prefix))
    return figures


async def assignment_round(url: str, sizes: Sizes) -> Round:
    """Assign, then four waves of private clicks by every member; what was measured."""
    async with FakeDiscord() as fake, bot_process(fake, url), store_on(url) as store:
        card = await assign(fake)
        run_id = run_of(card)
        members = [fake.member(f"member-{n}") for n in range(sizes.members)]
        steps = LessonCatalog().get().steps
        question = first_question()
        step = next(s for s in steps if s.id == question)
        assert isinstance(step, PredictionStep)
        choices = [choice.id for choice in step.choices]
        waves: list[Click] = [
            lambda _m, _n: Address(run_id, steps[0].id, Action.START).encode(),
            lambda _m, _n: Address(run_id, steps[0].id, Action.ONWARD).encode(),
            lambda _m, n: Address(run_id, question, Action.CHOOSE, choices[n % 4]).encode(),
            lambda _m, _n: Address(run_id, question, Action.ONWARD).encode(),
        ]
        started = asyncio.get_running_loop().time()
        acks: list[float | None] = []
        with without_collector_pauses():
            for wave in waves:
                acks += await click_wave(fake, card, members, wave, sizes)
        stored = await store.count_participants(run_id, question)
        progress = await store.pass_progress(run_id)
        edits = [c.at - started for c in fake.edits_of(card) if c.at >= started]
        return Round(acks, sizes.members - stored,
                     sizes.members - progress.at_step.get(steps.index(step) + 1, 0), edits)


async def assign(fake: FakeDiscord) -> Message:
    """The host's `/lesson assign due:1d`; the assignment card it posted."""
    sent = await fake.slash(fake.host("bench-host"), "assign", {"due": "1d"}, CHANNEL_ID)
    reply = (await fake.private_reply(sent)).content
    if "Assigned run" not in reply:
        raise RuntimeError(f"/lesson assign answered {reply!r}")
    return await fake.wait_until(lambda: next(iter(fake.channel_messages()), None), what="card")


async def click_wave(
    fake: FakeDiscord, card: Message, members: Sequence[FakeUser], click: Click, sizes: Sizes
) -> list[float | None]:
    """Every member clicks once, spread over `sizes.seconds`; each ack once all are answered."""
    operations: list[Callable[[], Awaitable[SentInteraction]]] = [
        partial(fake.click, member, clicked_in(fake, member, card), click(member, number))
        for number, member in enumerate(members)
    ]
    sent = await paced(operations, sizes.seconds)
    with suppress(AssertionError):  # the unanswered count as unacknowledged, or late
        await fake.wait_until(fake.all_replied(sent), sizes.settle_seconds, "every reply")
    return [fake.ack_delay(one) for one in sent]


def clicked_in(fake: FakeDiscord, member: FakeUser, card: Message) -> Message:
    """Where a member clicks: their private message once Start opened it, else the card."""
    shown = fake.live_ephemeral_messages(member)
    return shown[-1].message if shown else card


async def memory_probe(url: str, sizes: Sizes) -> tuple[float, float]:
    """The bot's RSS in MB once `memory_from`, then `memory_to`, members have started."""
    async with FakeDiscord() as fake, bot_process(fake, url) as bot:
        card = await assign(fake)
        start = Address(run_of(card), LessonCatalog().get().steps[0].id, Action.START).encode()
        members = [fake.member(f"member-{n}") for n in range(sizes.memory_to)]
        first = members[: sizes.memory_from]
        with without_collector_pauses():
            # The first members press Start again and again, in a wave as large as the later
            # ones: the process meets the same load before both readings.
            repeats = -(-sizes.members // len(first))
            await starts(fake, card, (first * repeats)[: sizes.members], start, sizes)
            before = rss_mb(bot)
            await starts(fake, card, members[sizes.memory_from :], start, sizes)
            return before, rss_mb(bot)


async def starts(
    fake: FakeDiscord, card: Message, members: Sequence[FakeUser], start: str, sizes: Sizes
) -> None:
    """Members press Start in waves of `sizes.members`, each answered before the next."""
    for first in range(0, len(members), sizes.members):
        wave = members[first : first + sizes.members]
        await click_wave(fake, card, wave, lambda _m, _n: start, sizes)


def rss_mb(bot: BotProcess) -> float:
    """The bot process's resident memory in MB, read from /proc."""
    for line in Path(f"/proc/{bot.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc status")


def round_figures(rounds: Sequence[Round], prefix: str) -> Figures:
    """The median over rounds of each figure, named with the database's prefix."""
    per_round = [one_round(measured) for measured in rounds]
    names = per_round[0].keys()
    return {
        f"{prefix}{name}": median([figures[name] for figures in per_round]) for name in names
    } | {f"{prefix}assigned_rounds": float(len(rounds))}


def one_round(measured: Round) -> dict[str, float]:
    """One round's figures."""
    acked = [seconds * 1000 for seconds in measured.acks if seconds is not None]
    return {
        "assigned_p99_ack_ms": percentile(acked, 99) if acked else float("inf"),
        "assigned_clicks": float(len(measured.acks)),
        "assigned_unacked": float(len(measured.acks) - len(acked)),
        "assigned_late_acks": float(sum(ms >= ACK_DEADLINE * 1000 for ms in acked)),
        "assigned_lost": float(measured.lost),
        "assigned_misplaced": float(measured.misplaced),
        "assigned_card_edits_per_2s_max": float(most_in_window(measured.card_edit_times)),
    }


def memory_figures(before: float, after: float, sizes: Sizes) -> Figures:
    """The RSS at the probe's two sizes and their ratio."""
    return {
        "assigned_rss_mb_few": before,
        "assigned_rss_mb_many": after,
        "assigned_rss_members_few": float(sizes.memory_from),
        "assigned_rss_members_many": float(sizes.memory_to),
        "assigned_rss_ratio": after / before,
    }


def unmeasured(prefix: str) -> Figures:
    """PostgreSQL's figures when no server is configured: a note instead."""
    return {f"{prefix}assigned": f"not measured: {SERVER_URL_VARIABLE} is not set"}
