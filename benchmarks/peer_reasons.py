"""Choosing the reasons to show at a peer round holding many stored reasons.

A run is moved to the lesson's peer round through the engine, and 10,000 members' first
answers and reasons are written in bulk (the rows `record_vote` and `save_reason` write). Then,
one call at a time, `reasons_to_show` as a member's own turn asks it (two choices, the member's
own reasons passed over) and as the discussion thread asks it (the three most chosen answers).
Each call marks the reasons it returns as shown once more, as the bot's calls do.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from benchmarks.lesson_setup import HOST, channel, lesson_engine, member
from benchmarks.peer_live import FIRST_ANSWER_KIND, PEER_STEP, peer_step
from benchmarks.seeding import seed_reasons
from benchmarks.timing import elapsed_ms
from bot.engine import LessonEngine
from bot.model import Phase, Position, RunState
from bot.model.records import ShownReason, VoteAt
from storage import SqlRunStore, open_database

WARM_UP_CALLS = 10
"""Untimed calls first, so the first timed one does not pay for compiling the statements."""
DISCUSSED = 3
"""The discussion thread shows a reason for each of the three most chosen answers."""
HELD = VoteAt(PEER_STEP, FIRST_ANSWER_KIND)
"""The first answers, which the reasons shown argue for."""


@dataclass(frozen=True)
class ShowRound:
    """Milliseconds of each call: a member's own turn, and the discussion thread."""

    member_ms: list[float]
    discussion_ms: list[float]
    reasons: int


async def show_round(url: str, reasons: int, calls: int) -> ShowRound:
    """Seed `reasons` reasons at a fresh run's peer round, then time `calls` calls of each kind."""
    database = open_database(url)
    try:
        store = SqlRunStore(database)
        run_id = await open_peer_round(lesson_engine(store))
        choices = [choice.id for choice in peer_step().choices]
        await seed_reasons(database, run_id, PEER_STEP, choices, reasons)
        await check_seeded(store, run_id, reasons)
        right = peer_step().correct_choice.id

        def for_member(n: int) -> Callable[[], Awaitable[list[ShownReason]]]:
            first = choices[n % len(choices)]
            other = right if first != right else choices[1]
            user = member(n).user_id
            return lambda: store.reasons_to_show(run_id, HELD, [other, first], not_by=user)

        def for_thread() -> Awaitable[list[ShownReason]]:
            return store.reasons_to_show(run_id, HELD, choices[:DISCUSSED])

        for n in range(WARM_UP_CALLS):
            picked = (len(await for_member(n)()), len(await for_thread()))
            if picked != (2, DISCUSSED):
                raise RuntimeError(f"expected 2 and {DISCUSSED} reasons to show, got {picked}")
        member_ms, discussion_ms = [], []
        for n in range(WARM_UP_CALLS, WARM_UP_CALLS + calls):
            member_ms.append(await timed(for_member(n)))
            discussion_ms.append(await timed(for_thread))
        return ShowRound(member_ms, discussion_ms, reasons)
    finally:
        await database.dispose()


async def open_peer_round(engine: LessonEngine) -> int:
    """Start a run and put it at the lesson's peer round, open; the run's id.

    The run is moved there in the store: moving on through the lesson would reveal its
    verifier step, which needs the answer checker this benchmark does without.
    """
    card = await engine.start(channel(1), HOST)
    run = await engine.open_run(card.run_id)
    index = [step.id for step in engine.core.lesson_of(run).steps].index(PEER_STEP)
    at_peer = Position(index, Phase.OPEN)
    if await engine.store.move_run(run.id, run.position, at_peer, RunState.ACTIVE, None) is None:
        raise RuntimeError("could not move the run to the peer round")
    return run.id


async def check_seeded(store: SqlRunStore, run_id: int, reasons: int) -> None:
    """Fail loudly unless the store sees `reasons` members answered at the peer round."""
    answered = await store.count_participants(run_id, PEER_STEP)
    if answered != reasons:
        raise RuntimeError(f"seeded {reasons} reasons but the store counts {answered} answers")


async def timed(operation: Callable[[], Awaitable[object]]) -> float:
    """Milliseconds one awaited operation takes."""
    started = time.perf_counter()
    await operation()
    return elapsed_ms(started)
