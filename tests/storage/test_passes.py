"""Members' passes through assigned runs: one per member, moved once per step, counted in SQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.model import (
    Member,
    MemberPass,
    NewRun,
    PassProgress,
    Phase,
    Place,
    Position,
    RunMode,
    RunState,
)
from storage import SqlRunStore

HOST = Member("U0", "Host", is_host=True)
ANN = Member("U1", "Ann")
BEN = Member("U2", "Ben")
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


async def assigned_run(
    store: SqlRunStore,
    channel: str = "C1",
    due_at: datetime | None = NOW + HOUR,
    remind_at: datetime | None = None,
    workspace: str = "T1",
) -> int:
    place = Place("slack", workspace, channel)
    new = NewRun(place, "rlvr", 1, HOST, None, None, RunMode.ASSIGNED, due_at, remind_at)
    return (await store.create_run(new)).id


async def live_run(
    store: SqlRunStore,
    channel: str,
    deadline: datetime | None = None,
    due_at: datetime | None = None,
    remind_at: datetime | None = None,
) -> int:
    """A live run, perhaps with the times of an assignment stored too (they make none of it)."""
    place = Place("slack", "T1", channel)
    new = NewRun(place, "rlvr", 1, HOST, 60, deadline, RunMode.LIVE, due_at, remind_at)
    return (await store.create_run(new)).id


async def test_a_live_run_is_stored_as_live(store: SqlRunStore) -> None:
    run_id = await live_run(store, "C1")
    run = await store.get_run(run_id)
    assert run is not None and run.mode is RunMode.LIVE
    assert (run.due_at, run.remind_at, run.reminded_at) == (None, None, None)


async def test_an_assigned_run_keeps_its_mode_and_times(store: SqlRunStore) -> None:
    run_id = await assigned_run(store, due_at=NOW + 2 * HOUR, remind_at=NOW + HOUR)
    active = await store.find_active_run(Place("slack", "T1", "C1"))
    for run in (await store.get_run(run_id), active):
        assert run is not None and run.mode is RunMode.ASSIGNED
        assert (run.due_at, run.remind_at, run.reminded_at) == (NOW + 2 * HOUR, NOW + HOUR, None)


async def test_starting_twice_keeps_the_first_pass(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    first = await store.start_pass(run_id, ANN, NOW)
    assert first == MemberPass(run_id, "U1", 0, NOW)
    await store.move_pass(run_id, "U1", 0, 1, None)
    again = await store.start_pass(run_id, Member("U1", "Ann B."), NOW + HOUR)
    assert again == MemberPass(run_id, "U1", 1, NOW)
    assert (await store.pass_progress(run_id)).started == 1


async def test_twenty_starts_at_once_store_one_pass(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    starts = [store.start_pass(run_id, ANN, NOW + timedelta(seconds=n)) for n in range(20)]
    passes = await asyncio.gather(*starts)
    assert len(set(passes)) == 1 and passes[0].step_index == 0
    assert await store.pass_progress(run_id) == PassProgress(1, 0, {0: 1})


async def test_a_pass_moves_only_from_the_expected_step_and_never_twice(
    store: SqlRunStore,
) -> None:
    run_id = await assigned_run(store)
    await store.start_pass(run_id, ANN, NOW)
    moved = await store.move_pass(run_id, "U1", 0, 1, None)
    assert moved == MemberPass(run_id, "U1", 1, NOW)
    assert await store.move_pass(run_id, "U1", 0, 1, None) is None
    assert await store.move_pass(run_id, "U1", 5, 6, None) is None
    racing = await asyncio.gather(*(store.move_pass(run_id, "U1", 1, 2, None) for _ in range(10)))
    assert [p.step_index for p in racing if p is not None] == [2]
    assert await store.member_pass(run_id, "U1") == MemberPass(run_id, "U1", 2, NOW)


async def test_only_the_members_own_pass_moves(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    await store.start_pass(run_id, ANN, NOW)
    await store.start_pass(run_id, BEN, NOW)
    assert await store.move_pass(run_id, "U9", 0, 1, None) is None
    await store.move_pass(run_id, "U2", 0, 1, None)
    assert (await store.member_pass(run_id, "U1"), await store.member_pass(run_id, "U2")) == (
        MemberPass(run_id, "U1", 0, NOW),
        MemberPass(run_id, "U2", 1, NOW),
    )


async def test_finishing_sets_finished_at_and_ends_the_pass(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    await store.start_pass(run_id, ANN, NOW)
    finished = await store.move_pass(run_id, "U1", 0, 3, NOW + HOUR)
    assert finished is not None and finished.finished and finished.finished_at == NOW + HOUR
    assert await store.move_pass(run_id, "U1", 3, 4, None) is None
    stored = await store.member_pass(run_id, "U1")
    assert stored is not None and stored.finished and stored.step_index == 3


async def test_a_pass_belongs_to_its_run_and_workspace(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    elsewhere = await assigned_run(store, "C1", workspace="T2")
    same_workspace = await assigned_run(store, "C2")
    await store.start_pass(run_id, ANN, NOW)
    assert await store.member_pass(run_id, "U2") is None
    assert await store.member_pass(elsewhere, "U1") is None
    assert await store.member_pass(same_workspace, "U1") is None
    await store.start_pass(elsewhere, ANN, NOW + HOUR)
    there = await store.member_pass(elsewhere, "U1")
    assert there == MemberPass(elsewhere, "U1", 0, NOW + HOUR)


async def test_progress_counts_started_finished_each_step_and_unreachable(
    store: SqlRunStore,
) -> None:
    run_id = await assigned_run(store)
    other = await assigned_run(store, "C2")
    assert await store.pass_progress(run_id) == PassProgress(0, 0, {}, 0)
    steps = {"U1": 0, "U2": 2, "U3": 2, "U4": 1, "U5": 4}
    for user_id, step in steps.items():
        await store.start_pass(run_id, Member(user_id, user_id), NOW)
        if step:
            await store.move_pass(run_id, user_id, 0, step, NOW if user_id == "U5" else None)
    await store.mark_unreachable(run_id, "U4")
    await store.start_pass(other, ANN, NOW)
    assert await store.pass_progress(run_id) == PassProgress(5, 1, {0: 1, 1: 1, 2: 2}, 1)
    assert await store.pass_progress(other) == PassProgress(1, 0, {0: 1}, 0)


async def test_the_reminder_is_owed_to_members_who_began_by_its_time_and_did_not_finish(
    store: SqlRunStore,
) -> None:
    run_id = await assigned_run(store, due_at=NOW + 3 * HOUR, remind_at=NOW + HOUR)
    for n, user_id in enumerate(["U1", "U2", "U3", "U4", "U5"]):
        await store.start_pass(run_id, Member(user_id, f"Name {user_id}"), NOW + n * MINUTE)
    await store.start_pass(run_id, Member("U6", "Late"), NOW + 2 * HOUR)  # began after it
    await store.move_pass(run_id, "U2", 0, 3, NOW + HOUR)
    await store.mark_unreachable(run_id, "U3")
    await store.mark_unreachable(run_id, "U9")  # never started: nothing to mark
    await store.mark_member_reminded(run_id, "U5", NOW + HOUR)
    owed = await store.passes_to_remind(run_id)
    assert [(p.user_id, p.step_index, p.name) for p in owed] == [
        ("U1", 0, "Name U1"), ("U4", 0, "Name U4"),
    ]
    unreachable = await store.member_pass(run_id, "U3")
    assert unreachable is not None and unreachable.unreachable
    assert await store.member_pass(run_id, "U9") is None


async def test_a_members_reminder_is_claimed_by_one_holder_until_sent(store: SqlRunStore) -> None:
    run_id = await assigned_run(store, remind_at=NOW)
    await store.start_pass(run_id, ANN, NOW - HOUR)
    claims = await asyncio.gather(
        *(store.claim_member_reminder(run_id, "U1", f"p{n}", 60) for n in range(10))
    )
    assert sorted(claims) == [False] * 9 + [True]
    winner = f"p{claims.index(True)}"
    assert await store.reminder_holders(run_id) == [winner]
    assert not await store.claim_member_reminder(run_id, "U1", winner, 60)  # not even again
    assert not await store.claim_member_reminder(run_id, "U1", "late", 60)
    assert await store.claim_member_reminder(run_id, "U1", "late", 60, replacing=[winner])
    await store.release_member_reminder(run_id, "U1", winner)  # no longer its claim: no-op
    assert await store.reminder_holders(run_id) == ["late"]
    await store.release_member_reminder(run_id, "U1", "late")  # given back, not sent
    assert await store.reminder_holders(run_id) == []
    assert await store.claim_member_reminder(run_id, "U1", "lapsing", -1.0)  # already lapsed
    assert await store.claim_member_reminder(run_id, "U1", "sender", 60)
    await store.mark_member_reminded(run_id, "U1", NOW)
    assert await store.reminder_holders(run_id) == []
    assert await store.passes_to_remind(run_id) == []
    assert not await store.claim_member_reminder(run_id, "U1", "after", -1.0, ["sender"])


async def test_the_runs_reminder_is_done_once_no_member_is_owed_it(store: SqlRunStore) -> None:
    run_id = await assigned_run(store, remind_at=NOW)
    await store.start_pass(run_id, ANN, NOW - HOUR)
    await store.start_pass(run_id, BEN, NOW - HOUR)
    assert not await store.finish_reminder(run_id, NOW)  # both are owed it
    await store.mark_member_reminded(run_id, "U1", NOW)
    assert await store.claim_member_reminder(run_id, "U2", "p", 60)
    assert not await store.finish_reminder(run_id, NOW)  # Ben's is claimed, not sent
    assert [run.id for run in await store.assignments_to_remind(NOW)] == [run_id]
    await store.mark_unreachable(run_id, "U2")
    done = await asyncio.gather(*(store.finish_reminder(run_id, NOW + HOUR) for _ in range(5)))
    assert sorted(done) == [False] * 4 + [True]
    run = await store.get_run(run_id)
    assert run is not None and run.reminded_at == NOW + HOUR
    assert await store.assignments_to_remind(NOW + HOUR) == []


async def test_a_runs_passes_are_read_in_the_order_members_started(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    other = await assigned_run(store, "C2")
    await store.start_pass(run_id, BEN, NOW + HOUR)
    await store.start_pass(run_id, ANN, NOW)
    await store.move_pass(run_id, "U1", 0, 3, NOW + 2 * HOUR)
    await store.start_pass(other, ANN, NOW)
    assert await store.run_passes(run_id) == [
        MemberPass(run_id, "U1", 3, NOW, NOW + 2 * HOUR, name="Ann"),
        MemberPass(run_id, "U2", 0, NOW + HOUR, name="Ben"),
    ]
    assert await store.run_passes(await assigned_run(store, "C3")) == []


async def test_due_assignments_and_reminders_due_pick_exactly_the_right_runs(
    store: SqlRunStore,
) -> None:
    due_and_remind = await assigned_run(store, "C1", due_at=NOW - HOUR, remind_at=NOW - HOUR)
    due_at_now = await assigned_run(store, "C2", due_at=NOW)
    remind_only = await assigned_run(store, "C3", due_at=NOW + HOUR, remind_at=NOW)
    reminded = await assigned_run(store, "C4", due_at=NOW - HOUR, remind_at=NOW - HOUR)
    assert await store.finish_reminder(reminded, NOW - HOUR)  # no member owed it
    stopped = await assigned_run(store, "C5", due_at=NOW - HOUR, remind_at=NOW - HOUR)
    await store.move_run(stopped, Position(0, Phase.OPEN), Position(0, Phase.OPEN),
                         RunState.STOPPED, None)
    await assigned_run(store, "C6", due_at=None, remind_at=None)
    await assigned_run(store, "C7", due_at=NOW + HOUR, remind_at=NOW + timedelta(seconds=1))
    await live_run(store, "C8", due_at=NOW - HOUR, remind_at=NOW - HOUR)
    await live_run(store, "C9", deadline=NOW - HOUR)
    due = [run.id for run in await store.due_assignments(NOW)]
    assert sorted(due) == sorted([due_and_remind, due_at_now, reminded])
    reminders = [run.id for run in await store.assignments_to_remind(NOW)]
    assert sorted(reminders) == sorted([due_and_remind, remind_only])
    assert all(run.mode is RunMode.ASSIGNED for run in await store.due_assignments(NOW))


async def test_forgetting_a_member_removes_their_passes(store: SqlRunStore) -> None:
    run_id = await assigned_run(store)
    other = await assigned_run(store, "C2")
    for run in (run_id, other):
        await store.start_pass(run, ANN, NOW)
    await store.start_pass(run_id, BEN, NOW)
    preview = await store.forget_member("slack", "T1", "U1", dry_run=True)
    assert (preview.passes, preview.member_records, preview.answers) == (2, 1, 0)
    assert preview.anything
    assert await store.member_pass(run_id, "U1") is not None
    report = await store.forget_member("slack", "T1", "U1")
    assert report == preview
    assert await store.member_pass(run_id, "U1") is None
    assert await store.member_pass(other, "U1") is None
    assert await store.pass_progress(run_id) == PassProgress(1, 0, {0: 1})
    assert await store.member_pass(run_id, "U2") is not None
    assert (await store.forget_member("slack", "T1", "U1")).passes == 0


async def test_closed_assignments_without_their_results_message_are_found(
    store: SqlRunStore,
) -> None:
    since = datetime.now(UTC) - HOUR  # runs are stamped with the real time as they change
    lost, posted, still_open = [await assigned_run(store, f"C{n}") for n in range(3)]
    await live_run(store, "C9")
    for run_id in (lost, posted):
        await store.move_run(run_id, Position(0, Phase.OPEN), Position(0, Phase.OPEN),
                             RunState.FINISHED, None)
    await store.save_message(posted, "assignment-results", "ref-1")
    await store.save_message(lost, "assignment", "ref-0")  # its card: not its results
    found = await store.closed_assignments_without("assignment-results", since)
    assert [run.id for run in found] == [lost]
    assert await store.closed_assignments_without("assignment-results", since + 2 * HOUR) == []
    assert still_open not in [run.id for run in found]


async def test_open_assignments_without_their_card_are_found(store: SqlRunStore) -> None:
    shown, lost = [await assigned_run(store, f"C{n}") for n in range(2)]
    await live_run(store, "C9")
    await store.save_message(shown, "assignment", "ref-1")
    assert [run.id for run in await store.open_assignments_without("assignment")] == [lost]


async def test_a_member_s_locale_is_stored_kept_when_not_known_and_updated_when_it_changes(
    store: SqlRunStore,
) -> None:
    run_id = await assigned_run(store)

    async def locale() -> str | None:
        (held,) = await store.run_passes(run_id)
        return held.locale

    await store.start_pass(run_id, Member("U1", "Ann", locale="es-ES"), NOW)
    assert await locale() == "es-ES"  # first seen: stored with the member
    await store.record_vote(run_id, "s1", Member("U1", "Ann"), "choice", "a")  # not known
    assert await locale() == "es-ES"
    await store.record_vote(run_id, "s1", Member("U1", "Ann", locale="en-GB"), "choice", "b")
    assert await locale() == "en-GB"  # their platform changed language
    await store.start_pass(run_id, Member("U1", "Ann", locale="es-419"), NOW)
    assert await locale() == "es-419"
