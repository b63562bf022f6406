"""The SQL store: one vote per member and kind, aggregates computed by the database."""

from __future__ import annotations

import asyncio

import pytest

from bot.model import ChannelBusy, Member, NewRun, Phase, Place, Position, RunState
from bot.verifier.verdict import Grade, Verdict
from storage import SqlRunStore

PLACE = Place("slack", "T1", "C1")
HOST = Member("U0", "Host", is_host=True)


async def new_run(store: SqlRunStore, place: Place = PLACE) -> int:
    run = await store.create_run(NewRun(place, "rlvr", 1, HOST, None, None))
    return run.id


async def test_a_double_click_counts_once(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    member = Member("U1", "Ann")
    await asyncio.gather(*(store.record_vote(run_id, "q1", member, "choice", "a")
                           for _ in range(10)))
    await store.record_vote(run_id, "q1", member, "choice", "b")
    counts = await store.vote_counts(run_id, "q1")
    assert [(c.kind, c.value, c.count) for c in counts] == [("choice", "b", 1)]


async def test_many_members_at_once_are_all_counted(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    members = [Member(f"U{n}", f"M{n}") for n in range(200)]
    await asyncio.gather(*(store.record_vote(run_id, "q1", m, "choice", "ab"[n % 2])
                           for n, m in enumerate(members)))
    counts = {c.value: c.count for c in await store.vote_counts(run_id, "q1")}
    assert counts == {"a": 100, "b": 100}
    assert await store.count_participants(run_id, "q1") == 200


async def test_one_active_run_per_channel(store: SqlRunStore) -> None:
    first = await new_run(store)
    with pytest.raises(ChannelBusy) as caught:
        await new_run(store)
    assert caught.value.run_id == first
    other = await new_run(store, Place("slack", "T1", "C2"))
    assert other != first


async def test_a_move_only_happens_from_the_expected_position(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    start = Position(0, Phase.OPEN)
    moved = await store.move_run(run_id, start, Position(0, Phase.REVEALED), RunState.ACTIVE,
                                 None)
    assert moved is not None and moved.position.phase is Phase.REVEALED
    again = await store.move_run(run_id, start, Position(1, Phase.OPEN), RunState.ACTIVE, None)
    assert again is None


async def test_free_answer_tries_are_numbered_per_member(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    ann, ben = Member("U1", "Ann"), Member("U2", "Ben")
    wrong = Verdict(Grade.INCORRECT, "5", "3")
    right = Verdict(Grade.CORRECT, "3", "3")
    assert (await store.record_free_answer(run_id, "f", ann, "5", wrong)).attempt_no == 1
    assert (await store.record_free_answer(run_id, "f", ann, "3", right)).attempt_no == 2
    assert (await store.record_free_answer(run_id, "f", ben, "3", right)).attempt_no == 1
    stats = await store.free_answer_stats(run_id, "f")
    assert (stats.members, stats.attempts, stats.solved, stats.first_try_solved) == (2, 3, 2, 1)


async def test_run_members_counts_everyone_once(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    ann = Member("U1", "Ann")
    await store.record_vote(run_id, "q1", ann, "choice", "a")
    await store.record_vote(run_id, "q2", ann, "choice", "a")
    await store.record_free_answer(run_id, "f", Member("U2", "Ben"), "1",
                                   Verdict(Grade.CORRECT, "1", "1"))
    assert await store.count_run_members(run_id) == 2


async def test_a_delivery_is_claimed_once_across_concurrent_handlers(store: SqlRunStore) -> None:
    claims = await asyncio.gather(*(store.claim_delivery("discord", "1234") for _ in range(8)))
    assert sorted(claims) == [False] * 7 + [True]
    assert await store.claim_delivery("slack", "1234") is True


async def test_two_stores_on_one_database_claim_a_delivery_once(database_url: str) -> None:
    from storage import open_database

    engines = [open_database(database_url) for _ in range(2)]
    stores = [SqlRunStore(engine) for engine in engines]
    claims = await asyncio.gather(*(stores[n % 2].claim_delivery("slack", f"t{n // 2}")
                                    for n in range(40)))
    assert sum(claims) == 20
    for engine in engines:
        await engine.dispose()


async def test_a_steps_counts_come_together_with_who_answered(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    ann, ben, cal = Member("U1", "Ann"), Member("U2", "Ben"), Member("U3", "Cal")
    for member, value in ((ann, "a"), (ben, "b"), (cal, "b")):
        await store.record_vote(run_id, "q1", member, "choice", value)
    await store.record_vote(run_id, "q1", ann, "rate:x", "up")
    members, votes = await store.step_counts(run_id, "q1")
    assert members == 3
    assert sorted((v.kind, v.value, v.count) for v in votes) == [
        ("choice", "a", 1), ("choice", "b", 2), ("rate:x", "up", 1)
    ]
    await store.record_free_answer(run_id, "f", ben, "1", Verdict(Grade.CORRECT, "1", "1"))
    assert await store.step_counts(run_id, "f") == (1, [])  # typed answers, no votes
    assert await store.step_counts(run_id, "nobody-here") == (0, [])


async def test_whether_a_member_answered_a_step_by_vote_or_typed_try(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    ann, ben = Member("U1", "Ann"), Member("U2", "Ben")
    await store.record_vote(run_id, "q1", ann, "choice", "a")
    await store.record_free_answer(run_id, "f", ben, "1", Verdict(Grade.CORRECT, "1", "1"))
    elsewhere = await new_run(store, Place("slack", "T2", "C1"))  # another workspace's Ann
    await store.record_vote(elsewhere, "f", ann, "choice", "a")
    answered = [
        (user, step)
        for user in ("U1", "U2", "U3") for step in ("q1", "f")
        if await store.member_answered(run_id, step, user)
    ]
    assert answered == [("U1", "q1"), ("U2", "f")]


async def test_a_run_keeps_its_language(store: SqlRunStore) -> None:
    spanish = await store.create_run(NewRun(PLACE, "rlvr", 1, HOST, None, None, language="es"))
    assert spanish.language == "es"
    stored = await store.get_run(spanish.id)
    assert stored is not None and stored.language == "es"
    english = await store.create_run(NewRun(Place("slack", "T1", "C2"), "rlvr", 1, HOST, None,
                                            None))
    assert english.language == "en"
