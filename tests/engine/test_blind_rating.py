"""The blind rating round: no checker verdict and no gold until a member has rated every attempt."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from bot.engine import Action, LessonEngine
from bot.model import BadInput, StepCard, StepClosed
from lessons.schema import VerifierStep
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at
from tests.engine.test_assigned import assign, button, walk_to


def verifier(engine: LessonEngine, card: StepCard) -> VerifierStep:
    """The verifier step a card shows."""
    step = next(s for s in engine.catalog.get().steps if s.id == card.step_id)
    assert isinstance(step, VerifierStep)
    return step


async def all_rated_by_alice(engine: LessonEngine) -> tuple[StepCard, VerifierStep, str]:
    """The verifier step, with Alice's 👍 on every attempt; her last rating's receipt."""
    card = await start_at(engine, "verifier")
    step = verifier(engine, card)
    receipts = [
        await engine.rate(card.run_id, card.step_id, ALICE, attempt.id, True)
        for attempt in step.attempts
    ]
    return card, step, receipts[-1].text


async def stored_kinds(store: SqlRunStore, card: StepCard, user_id: str) -> list[str]:
    """The kinds of everything stored for one member at the card's step."""
    answers = await store.export_answers(card.run_id)
    return sorted(a.kind for a in answers if a.user_id == user_id and a.step_id == card.step_id)


async def test_the_checker_refuses_until_every_attempt_is_rated_and_stores_nothing(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "verifier")
    step = verifier(engine, card)
    first, *rest = step.attempts
    total = len(step.attempts)
    expected = f"Rate all {total} attempts.* {total} attempts left to rate"
    with pytest.raises(BadInput, match=expected) as none:
        await engine.run_checker(card.run_id, card.step_id, ALICE, first.id)
    for attempt in rest:
        rated = await engine.rate(card.run_id, card.step_id, ALICE, attempt.id, True)
    assert f"1 attempt left to rate: **{first.label}**." in rated.text
    with pytest.raises(BadInput, match="1 attempt left to rate") as one:
        await engine.run_checker(card.run_id, card.step_id, ALICE, rest[0].id)
    for refusal in (str(none.value), str(one.value), rated.text):
        assert step.gold not in refusal and "Reward" not in refusal and "read the" not in refusal
    kinds = await stored_kinds(store, card, ALICE.user_id)
    assert kinds == sorted(f"rate:{attempt.id}" for attempt in rest)


async def test_once_all_are_rated_the_checker_shows_verdict_and_gold_then_ratings_lock(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card, step, last = await all_rated_by_alice(engine)
    assert f"You have rated all {len(step.attempts)}" in last
    assert "first checker run locks" in last
    changed = await engine.rate(card.run_id, card.step_id, ALICE, step.attempts[0].id, False)
    assert "👎" in changed.text

    first = await engine.run_checker(card.run_id, card.step_id, ALICE, step.attempts[0].id)
    assert f"gold answer **{step.gold}** → reward **" in first.text
    assert "now locked" in first.text
    again = await engine.run_checker(card.run_id, card.step_id, ALICE, step.attempts[1].id)
    assert f"gold answer **{step.gold}**" in again.text and "now locked" not in again.text
    with pytest.raises(BadInput, match="ratings are locked"):
        await engine.rate(card.run_id, card.step_id, ALICE, step.attempts[0].id, True)
    votes = await store.member_votes(card.run_id, card.step_id, ALICE.user_id)
    assert votes[f"rate:{step.attempts[0].id}"] == "down"
    assert votes["ratings-locked"] == step.attempts[0].id


async def test_a_rating_racing_the_first_checker_run_is_kept_only_if_it_came_first(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card, step, _ = await all_rated_by_alice(engine)
    target = step.attempts[1].id
    rated, checked = await asyncio.gather(
        engine.rate(card.run_id, card.step_id, ALICE, target, False),
        engine.run_checker(card.run_id, card.step_id, ALICE, step.attempts[0].id),
        return_exceptions=True,
    )
    assert not isinstance(checked, BaseException) and "gold answer" in checked.text
    votes = await store.member_votes(card.run_id, card.step_id, ALICE.user_id)
    assert votes[f"rate:{target}"] == ("up" if isinstance(rated, BadInput) else "down")


async def test_after_the_host_closes_the_rating_the_reveal_shows_the_comparison(
    engine: LessonEngine,
) -> None:
    card = await start_at(engine, "verifier")
    step = verifier(engine, card)
    await engine.rate(card.run_id, card.step_id, ALICE, step.attempts[0].id, True)
    await engine.rate(card.run_id, card.step_id, BOB, step.attempts[0].id, True)
    _, reveal = await engine.reveal(card.run_id, HOST)
    expected = [int(attempt.expect == "correct") for attempt in step.attempts]
    assert reveal.rows[0].thumbs_up == 2 and [row.reward for row in reveal.rows] == expected
    assert any("given before its rater saw the checker" in note for note in reveal.notes)
    with pytest.raises(StepClosed):
        await engine.run_checker(card.run_id, card.step_id, ALICE, step.attempts[0].id)


async def test_300_checker_clicks_by_one_member_store_one_verdict(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card, step, _ = await all_rated_by_alice(engine)
    attempt = step.attempts[0]
    for _ in range(300):
        receipt = await engine.run_checker(card.run_id, card.step_id, ALICE, attempt.id)
        assert f"gold answer **{step.gold}**" in receipt.text
    exported = await engine.export_run(card.run_id, HOST, CHANNEL)
    rows = list(csv.DictReader(io.StringIO(exported)))
    checks = [(row["user_id"], row["value"]) for row in rows if row["kind"] == "checker"]
    assert checks == [(ALICE.user_id, attempt.id)]
    assert len(rows) == len(step.attempts) + 2  # the ratings, the lock and one checker run


async def test_an_assigned_member_sees_the_tally_so_far_once_they_ran_the_checker(
    engine: LessonEngine, clock: FakeClock
) -> None:
    """The tally so far holds the checker's rewards: a member still rating blind sees none."""
    run_id = await assign(engine, clock)
    card = await walk_to(engine, run_id, ALICE, "verifier")
    step = verifier(engine, card)
    for attempt in step.attempts:
        await engine.click(button(card, Action.UP, attempt.id), ALICE)
        after = await engine.after_answer(run_id, card.step_id, ALICE)
        assert after.own is not None and after.own.so_far is None
        resumed = await engine.assigned.resume(CHANNEL, ALICE)
        assert resumed.so_far is None
    await engine.click(button(card, Action.CHECK, step.attempts[0].id), ALICE)
    after = await engine.after_answer(run_id, card.step_id, ALICE)
    assert after.own is not None and after.own.so_far is not None
    assert [row.reward for row in after.own.so_far.rows] == [
        int(attempt.expect == "correct") for attempt in step.attempts
    ]
