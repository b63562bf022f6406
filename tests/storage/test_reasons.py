"""Members' reasons at a peer round: one per answer, shown in turn, hidden, forgotten, exported."""

from __future__ import annotations

import asyncio

from bot.model import Member
from bot.model.records import VoteAt
from storage import SqlRunStore
from tests.storage.test_repository import PLACE, new_run

STEP = "peer"
FIRST = VoteAt(STEP, "choice")
"""Members' first answers, which the reasons shown argue for."""
ANN, BEN, CY = Member("U1", "Ann"), Member("U2", "Ben"), Member("U3", "Cy")


async def first_reason(
    store: SqlRunStore, run_id: int, member: Member, choice: str, text: str
) -> None:
    """A member's first answer, and their reason for it."""
    await store.record_vote(run_id, STEP, member, FIRST.kind, choice)
    await store.save_reason(run_id, STEP, member, 1, choice, text)


async def test_a_repeated_reason_replaces_the_first_and_each_answer_keeps_its_own(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await asyncio.gather(*(
        store.save_reason(run_id, STEP, ANN, 1, "a", f"because of reason {n}") for n in range(5)
    ))
    await store.save_reason(run_id, STEP, ANN, 1, "a", "the checker makes the difference")
    await store.save_reason(run_id, STEP, ANN, 2, "b", "Ben convinced me")
    assert await store.member_reasons(run_id, STEP, "U1") == {
        1: "the checker makes the difference",
        2: "Ben convinced me",
    }
    assert await store.member_reasons(run_id, STEP, "U2") == {}
    assert [row.kind for row in await store.export_answers(run_id)] == ["reason", "reason"]


async def test_every_reason_gets_its_turn_and_never_the_readers_own(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    for member, text in ((ANN, "first of a"), (BEN, "second of a"), (CY, "third of a")):
        await first_reason(store, run_id, member, "a", text)
    await store.save_reason(run_id, STEP, BEN, 2, "b", "a second answer's reason is not shown")
    seen = [
        [r.text for r in await store.reasons_to_show(run_id, FIRST, ["a", "b"], not_by="U9")]
        for _ in range(3)
    ]
    assert sorted(texts[0] for texts in seen) == ["first of a", "second of a", "third of a"]
    assert all(len(texts) == 1 for texts in seen)  # nothing for b: only first answers are read
    mine = await store.reasons_to_show(run_id, FIRST, ["a"], not_by="U1")
    assert [r.text for r in mine] != ["first of a"] and len(mine) == 1


async def test_a_hidden_reason_is_never_shown_again(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    await first_reason(store, run_id, ANN, "a", "@everyone <!channel> read this")
    [shown] = await store.reasons_to_show(run_id, FIRST, ["a"])
    assert await store.hide_reason(run_id + 1, shown.id) is False  # another run's: untouched
    assert await store.hide_reason(run_id, shown.id) is True
    for _ in range(3):
        assert await store.reasons_to_show(run_id, FIRST, ["a"]) == []
    assert await store.hide_reason(run_id, shown.id + 1000) is False


async def test_a_runs_reasons_are_listed_for_its_hosts_oldest_first_hidden_ones_too(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await first_reason(store, run_id, ANN, "a", "ann's first")
    await store.save_reason(run_id, STEP, BEN, 2, "b", "ben after discussion")
    [shown] = await store.reasons_to_show(run_id, FIRST, ["a"])
    await store.hide_reason(run_id, shown.id)
    listed = await store.run_reasons(run_id)
    assert [(r.text, r.choice, r.vote, r.shown, r.hidden) for r in listed] == [
        ("ann's first", "a", 1, 1, True),
        ("ben after discussion", "b", 2, 0, False),
    ]
    assert listed[0].id == shown.id and listed[0].step_id == STEP
    assert await store.run_reasons(run_id + 1) == []


async def test_forgetting_a_member_removes_their_reasons(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    await store.save_reason(run_id, STEP, ANN, 1, "a", "ann's reason for a")
    await store.save_reason(run_id, STEP, ANN, 2, "a", "ann's second reason")
    await first_reason(store, run_id, BEN, "b", "ben's reason for b")
    preview = await store.forget_member(PLACE.platform, PLACE.workspace, "U1", dry_run=True)
    assert preview.reasons == 2 and len(await store.export_answers(run_id)) == 4
    report = await store.forget_member(PLACE.platform, PLACE.workspace, "U1")
    assert report.reasons == 2 and report.answers == 2
    assert await store.member_reasons(run_id, STEP, "U1") == {}
    assert [r.text for r in await store.reasons_to_show(run_id, FIRST, ["a", "b"])] == [
        "ben's reason for b"
    ]


async def test_the_export_has_each_reason_in_its_own_column(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    await store.record_vote(run_id, STEP, ANN, "choice", "a")
    await store.save_reason(run_id, STEP, ANN, 1, "a", "=HYPERLINK(1) is my reason")
    vote, reason = await store.export_answers(run_id)
    assert (vote.kind, vote.value, vote.reason) == ("choice", "a", "")
    assert (reason.kind, reason.value, reason.attempt_no, reason.reason) == (
        "reason", "a", 1, "=HYPERLINK(1) is my reason"
    )


async def test_a_hidden_reason_stays_hidden_when_its_author_sends_it_again(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await first_reason(store, run_id, ANN, "a", "@everyone read this now")
    [shown] = await store.reasons_to_show(run_id, FIRST, ["a"])
    assert await store.hide_reason(run_id, shown.id) is True
    await store.save_reason(run_id, STEP, ANN, 1, "a", "@everyone read this now")
    await store.save_reason(run_id, STEP, ANN, 1, "a", "another text from the same member")
    assert await store.reasons_to_show(run_id, FIRST, ["a"]) == []
    [listed] = await store.run_reasons(run_id)
    assert listed.hidden and listed.text == "another text from the same member"


async def test_concurrent_readers_each_get_their_own_reason_while_one_is_unread(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    authors = [Member(f"U{n}", f"Member {n}") for n in range(12)]
    for author in authors:
        await first_reason(store, run_id, author, "a", f"reason number {author.user_id}")
    picks = await asyncio.gather(
        *(store.reasons_to_show(run_id, FIRST, ["a"]) for _ in authors)
    )
    texts = sorted(reason.text for pick in picks for reason in pick)
    assert texts == sorted(f"reason number {author.user_id}" for author in authors)
    assert {r.shown for r in await store.run_reasons(run_id)} == {1}


async def test_a_reason_waits_while_its_author_holds_another_answer(store: SqlRunStore) -> None:
    run_id = await new_run(store)
    await first_reason(store, run_id, ANN, "a", "ann argues for a here")
    await store.record_vote(run_id, STEP, ANN, FIRST.kind, "b")
    assert await store.reasons_to_show(run_id, FIRST, ["a", "b"]) == []
    await store.record_vote(run_id, STEP, ANN, FIRST.kind, "a")
    assert [r.text for r in await store.reasons_to_show(run_id, FIRST, ["a", "b"])] == [
        "ann argues for a here"
    ]


async def test_a_reason_sent_before_answering_goes_with_the_answer_its_author_holds(
    store: SqlRunStore,
) -> None:
    run_id = await new_run(store)
    await store.save_reason(run_id, STEP, ANN, 1, None, "ann wrote before choosing")
    await store.save_reason(run_id, STEP, BEN, 1, None, "ben never chooses anything")
    await first_reason(store, run_id, CY, "a", "cy argues for a")
    assert [r.text for r in await store.reasons_to_show(run_id, FIRST, ["a", "b"])] == [
        "cy argues for a"
    ]  # nobody holds an answer the reasons sent first could argue for
    assert [r.choice for r in await store.run_reasons(run_id)] == [None, None, "a"]

    await store.record_vote(run_id, STEP, ANN, FIRST.kind, "b")
    shown = await store.reasons_to_show(run_id, FIRST, ["a", "b", "c"])
    assert [(r.choice, r.text) for r in shown] == [
        ("a", "cy argues for a"), ("b", "ann wrote before choosing")
    ]
    await store.record_vote(run_id, STEP, ANN, FIRST.kind, "c")
    shown = await store.reasons_to_show(run_id, FIRST, ["a", "b", "c"])
    assert [(r.choice, r.text) for r in shown] == [
        ("a", "cy argues for a"), ("c", "ann wrote before choosing")
    ]
