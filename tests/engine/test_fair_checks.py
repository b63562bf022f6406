"""Fair checking through the engine: one check in flight per member, the try cap kept under
concurrent clicks, and the checker's failures as refusals that store nothing."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.engine.checks import TURNED_AWAY_LIMIT, TURNED_AWAY_WINDOW, CheckTurns
from bot.model import (
    BadInput,
    CheckerFailed,
    CheckInFlight,
    ChecksPaused,
    Member,
    Phase,
    Receipt,
    StepCard,
    TriesUsedUp,
)
from bot.process.runtime import open_runtime
from bot.settings import Settings
from bot.verifier import Checker
from bot.verifier.errors import BUSY
from lessons.schema import VerifierStep
from storage import SqlRunStore, open_database
from tests.conftest import SLOW_ANSWER, FakeClock
from tests.engine.helpers import ALICE, BOB, CAROL, CHANNEL, HOST, start_at
from tests.engine.test_free_answer_tries import capped_engine, with_max_tries
from tests.waiting import wait_until

OTHER_CHANNEL = CHANNEL.__class__(CHANNEL.platform, CHANNEL.workspace, "channel-2")
IN_FLIGHT = "Your previous answer is still being checked."


@pytest.fixture
async def one_worker() -> AsyncIterator[Checker]:
    """One worker and a 2 s timeout: a slow answer holds it long enough to click again."""
    async with Checker(workers=1, timeout=2.0) as checker:
        yield checker


def engine_on(store: SqlRunStore, checker: Checker, clock: FakeClock) -> LessonEngine:
    """The default lesson's engine on this store and checker."""
    return LessonEngine(store, checker, LessonCatalog(), clock)


async def answer_in_flight(engine: LessonEngine, card: StepCard) -> asyncio.Task[Receipt]:
    """Alice's slow answer, once it is being checked."""
    slow = asyncio.create_task(engine.submit_answer(card.run_id, card.step_id, ALICE, SLOW_ANSWER))

    async def checking() -> bool:
        return engine.members.turns.in_flight() == 1

    await wait_until(checking, 30.0, "Alice's answer to be in the checker")
    return slow


async def alice_checking(
    engine: LessonEngine,
) -> tuple[LessonEngine, StepCard, asyncio.Task[Receipt]]:
    """The engine at the free-answer step, with Alice's slow answer being checked."""
    card = await start_at(engine, "free_answer")
    return engine, card, await answer_in_flight(engine, card)


async def rated_verifier(engine: LessonEngine) -> tuple[StepCard, str]:
    """A verifier step where Alice rated every attempt; the id of its first attempt."""
    card = await start_at(engine, "verifier", OTHER_CHANNEL)
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, VerifierStep)
    for attempt in step.attempts:
        await engine.rate(card.run_id, card.step_id, ALICE, attempt.id, True)
    return card, step.attempts[0].id


async def kinds_of(store: SqlRunStore, card: StepCard, user_id: str) -> list[str]:
    """The kinds of everything stored for one member at the card's step."""
    answers = await store.export_answers(card.run_id)
    return sorted(a.kind for a in answers if a.user_id == user_id and a.step_id == card.step_id)


async def test_a_second_answer_while_the_first_is_checked_is_refused_and_not_stored(
    store: SqlRunStore, one_worker: Checker, clock: FakeClock
) -> None:
    engine, card, slow = await alice_checking(engine_on(store, one_worker, clock))
    with pytest.raises(CheckInFlight, match=IN_FLIGHT):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")
    with pytest.raises(BadInput, match="took too long"):
        await slow
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 0
    second = await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")
    assert second.text.startswith("Try 1:") and second.reward == 1


async def test_a_checker_run_while_an_answer_is_checked_is_refused_and_locks_nothing(
    store: SqlRunStore, one_worker: Checker, clock: FakeClock
) -> None:
    engine = engine_on(store, one_worker, clock)
    answer_card = await start_at(engine, "free_answer")
    verifier_card, attempt_id = await rated_verifier(engine)
    rated = await kinds_of(store, verifier_card, ALICE.user_id)
    slow = await answer_in_flight(engine, answer_card)
    with pytest.raises(CheckInFlight, match=IN_FLIGHT):
        await engine.run_checker(verifier_card.run_id, verifier_card.step_id, ALICE, attempt_id)
    assert await kinds_of(store, verifier_card, ALICE.user_id) == rated
    with pytest.raises(BadInput, match="took too long"):
        await slow
    checked = await engine.run_checker(
        verifier_card.run_id, verifier_card.step_id, ALICE, attempt_id
    )
    assert "now locked" in checked.text


async def test_a_slow_answer_gives_way_to_another_members_and_costs_no_try(
    store: SqlRunStore, fair_checker: Checker, clock: FakeClock
) -> None:
    engine, card, slow = await alice_checking(engine_on(store, fair_checker, clock))
    bob = await engine.submit_answer(card.run_id, card.step_id, BOB, "3/4")
    assert bob.text.startswith("Try 1:") and bob.reward == 1
    with pytest.raises(CheckerFailed, match=re.escape(BUSY)):
        await slow
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 0
    assert engine.members.turns.in_flight() == 0


async def test_a_broken_checker_is_a_refusal_that_stores_nothing(
    store: SqlRunStore, checker: Checker, broken_checker: Checker, clock: FakeClock
) -> None:
    working = engine_on(store, checker, clock)
    card = await start_at(working, "free_answer")
    verifier_card, attempt_id = await rated_verifier(working)
    rated = await kinds_of(store, verifier_card, ALICE.user_id)
    engine = engine_on(store, broken_checker, clock)
    with pytest.raises(CheckerFailed, match="not working right now, so nothing was recorded"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 0
    with pytest.raises(CheckerFailed, match="not working right now"):
        await engine.run_checker(verifier_card.run_id, verifier_card.step_id, ALICE, attempt_id)
    assert await kinds_of(store, verifier_card, ALICE.user_id) == rated
    assert engine.members.turns.in_flight() == 0


async def test_a_reveal_the_checker_cannot_grade_is_refused_and_moves_nothing(
    store: SqlRunStore, checker: Checker, broken_checker: Checker, clock: FakeClock
) -> None:
    card = await start_at(engine_on(store, checker, clock), "verifier")
    engine = engine_on(store, broken_checker, clock)
    with pytest.raises(CheckerFailed, match="not working right now"):
        await engine.reveal(card.run_id, HOST)
    run = await store.get_run(card.run_id)
    assert run is not None and run.position.phase is Phase.OPEN
    revealed = await engine_on(store, checker, clock).reveal(card.run_id, HOST)
    assert revealed[1].rows


async def test_concurrent_last_tries_from_two_processes_store_exactly_one(
    store: SqlRunStore, checker: Checker, clock: FakeClock, database_url: str
) -> None:
    engine = capped_engine(store, checker, clock, tries=2)
    card = await start_at(engine, "free_answer")
    await engine.submit_answer(card.run_id, card.step_id, ALICE, "1")
    database = open_database(database_url)
    try:
        other = capped_engine(SqlRunStore(database), checker, clock, tries=2)
        results = await asyncio.gather(
            engine.submit_answer(card.run_id, card.step_id, ALICE, "2"),
            other.submit_answer(card.run_id, card.step_id, ALICE, "3"),
            engine.submit_answer(card.run_id, card.step_id, ALICE, "4"),
            return_exceptions=True,
        )
    finally:
        await database.dispose()
    receipts = [result for result in results if isinstance(result, Receipt)]
    refusals = [result for result in results if not isinstance(result, Receipt)]
    assert [receipt.text[:6] for receipt in receipts] == ["Try 2:"]
    assert all(isinstance(refusal, TriesUsedUp | CheckInFlight) for refusal in refusals)
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 2


async def test_a_try_past_the_cap_is_refused_as_it_is_written(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    card = await start_at(engine_on(store, checker, clock), "free_answer")
    verdict = await checker.check_answer("3/4", "3/4")
    stored = await store.record_free_answer(card.run_id, card.step_id, ALICE, "3/4", verdict, 1)
    assert stored.attempt_no == 1
    with pytest.raises(TriesUsedUp, match="your 1 tries"):
        await store.record_free_answer(card.run_id, card.step_id, ALICE, "3/4", verdict, 1)
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 1


async def test_the_settings_cap_applies_where_the_lesson_sets_none(
    store: SqlRunStore, checker: Checker, clock: FakeClock
) -> None:
    engine = LessonEngine(store, checker, LessonCatalog(), clock, max_tries=2)
    card = await start_at(engine, "free_answer")
    first = await engine.submit_answer(card.run_id, card.step_id, ALICE, "1")
    assert first.tries_left == 1
    await engine.submit_answer(card.run_id, card.step_id, ALICE, "2")
    with pytest.raises(TriesUsedUp, match="You have used your 2 tries"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")

    catalog = LessonCatalog()
    catalog.add(with_max_tries(catalog.get(), 3))
    authored = LessonEngine(store, checker, catalog, clock, max_tries=2)
    card = await start_at(authored, "free_answer", OTHER_CHANNEL)
    assert (await authored.submit_answer(card.run_id, card.step_id, BOB, "1")).tries_left == 2


async def test_the_bot_reads_its_try_cap_from_the_environment(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREE_ANSWER_MAX_TRIES", "1")
    settings = Settings(_env_file=None, database_url=database_url)  # type: ignore[call-arg]
    async with open_runtime(settings, migrate=False) as runtime:
        engine = runtime.engine
        card = await start_at(engine, "free_answer")
        last = await engine.submit_answer(card.run_id, card.step_id, ALICE, "1")
        assert last.tries_left == 0 and "That was your last try" in last.text
        with pytest.raises(TriesUsedUp, match="You have used your 1 tries"):
            await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")


async def test_a_member_whose_checks_keep_giving_way_is_asked_politely_to_wait(
    store: SqlRunStore, fair_checker: Checker, clock: FakeClock
) -> None:
    engine, card, slow = await alice_checking(engine_on(store, fair_checker, clock))
    for n, other in enumerate((BOB, CAROL, Member("dan", "Dan"))):
        if n:
            slow = await answer_in_flight(engine, card)
        await engine.submit_answer(card.run_id, card.step_id, other, "3/4")
        with pytest.raises(CheckerFailed, match=re.escape(BUSY)):
            await slow
    with pytest.raises(ChecksPaused, match=r"send again in \d+ s; nothing was recorded"):
        await engine.submit_answer(card.run_id, card.step_id, ALICE, "3/4")
    assert await store.count_tries(card.run_id, card.step_id, ALICE.user_id) == 0
    bob = await engine.submit_answer(card.run_id, card.step_id, BOB, "3/4")
    assert bob.text.startswith("Try 2:")


def test_turned_away_checks_count_for_a_minute_and_then_are_dropped() -> None:
    now = [0.0]
    turns = CheckTurns(clock=lambda: now[0])
    stopped = CheckerFailed(BUSY, turned_away=True)
    for _ in range(TURNED_AWAY_LIMIT):
        with pytest.raises(CheckerFailed), turns.turn(CHANNEL, ALICE.user_id):
            raise stopped
    with pytest.raises(ChecksPaused, match="in 60 s"), turns.turn(CHANNEL, ALICE.user_id):
        pass
    with turns.turn(CHANNEL, BOB.user_id):
        pass
    now[0] = TURNED_AWAY_WINDOW
    with turns.turn(CHANNEL, ALICE.user_id):
        pass
    assert turns.paused() == 0
