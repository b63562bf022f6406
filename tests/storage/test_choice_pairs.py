"""Pairing each member's choices at two steps, counted by the database without names."""

from __future__ import annotations

from bot.model import Member
from bot.model.records import ChoicePair, StepTally, VoteAt, VoteCount
from storage import SqlRunStore
from tests.storage.test_repository import new_run

BEFORE, AFTER = VoteAt("before", "choice"), VoteAt("after", "choice")


async def vote(store: SqlRunStore, run_id: int, step_id: str, user: str, value: str) -> None:
    await store.record_vote(run_id, step_id, Member(user, user.upper()), "choice", value)


async def test_pairs_count_members_by_their_two_choices(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    for user, first, second in [("u1", "a", "b"), ("u2", "a", "b"), ("u3", "b", "b")]:
        await vote(store, run_id, "before", user, first)
        await vote(store, run_id, "after", user, second)
    await vote(store, run_id, "before", "u4", "a")
    await vote(store, run_id, "after", "u5", "c")
    await store.record_vote(run_id, "after", Member("u4"), "rate:x", "up")
    await vote(store, run_id, "elsewhere", "u6", "a")
    pairs = await store.choice_pairs(run_id, BEFORE, AFTER)
    assert sorted(pairs, key=repr) == sorted(
        [
            ChoicePair("a", "b", 2),
            ChoicePair("b", "b", 1),
            ChoicePair("a", None, 1),
            ChoicePair(None, "c", 1),
        ],
        key=repr,
    )
    assert await store.choice_pairs(run_id + 1, BEFORE, AFTER) == []


async def test_a_frozen_tally_keeps_its_pairs(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    tally = StepTally(2, (VoteCount("choice", "b", 2),), None, (ChoicePair("a", "b", 1),))
    await store.save_tally(run_id, "after", tally)
    assert await store.find_tally(run_id, "after") == tally
