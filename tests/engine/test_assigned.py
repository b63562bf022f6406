"""Assigned runs in the engine: each member's own pass, the tally so far, closing once."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import timedelta

import pytest

from bot.engine import IS_ASSIGNMENT, Action, Address, LessonEngine, OwnStep
from bot.model import (
    BadAddress,
    BadInput,
    ChannelBusy,
    Member,
    MemberPass,
    NoActiveRun,
    NotHost,
    Place,
    RunMode,
    RunState,
    StepCard,
    StepClosed,
)
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.engine.helpers import ALICE, BOB, CAROL, CHANNEL, HOST

DAY = timedelta(days=1)


async def assign(engine: LessonEngine, clock: FakeClock) -> int:
    """Assign the default lesson in the test channel, due in a day; the run id."""
    card = await engine.assigned.assign(CHANNEL, HOST, None, clock() + DAY)
    return card.run_id


def card_of(own: OwnStep) -> StepCard:
    """The member's step card (they have not finished)."""
    assert own.card is not None, own.text
    return own.card


async def walk_to_step(
    engine: LessonEngine, run_id: int, member: Member, step_id: str
) -> StepCard:
    """Start a member's pass and press their own Next until the step `step_id`."""
    card = card_of(await engine.assigned.begin(run_id, member))
    while card.step_id != step_id:
        card = card_of(await engine.assigned.onward(run_id, member, card.step_id))
    return card


async def walk_to(engine: LessonEngine, run_id: int, member: Member, kind: str) -> StepCard:
    """Start a member's pass and press their own Next until a step of `kind`."""
    card = card_of(await engine.assigned.begin(run_id, member))
    while card.kind != kind:
        card = card_of(await engine.assigned.onward(run_id, member, card.step_id))
    return card


def button(card: StepCard, action: Action, arg: str = "") -> Address:
    """The address of a card's button."""
    wanted = Address(card.run_id, card.step_id, action, arg).encode()
    assert any(b.address == wanted for b in card.buttons), [b.address for b in card.buttons]
    return Address(card.run_id, card.step_id, action, arg)


async def test_assigning_stores_an_assigned_run_and_shows_counts_only(
    engine: LessonEngine, store: SqlRunStore, clock: FakeClock
) -> None:
    card = await engine.assigned.assign(CHANNEL, HOST, None, clock() + DAY)
    lesson = engine.catalog.get()
    assert (card.title, card.steps, card.due_at) == (lesson.title, len(lesson.steps), clock() + DAY)
    assert card.counter_text == "0 started · 0 finished"
    assert [b.label for b in card.buttons] == ["Start"]
    run = await store.get_run(card.run_id)
    assert run is not None and run.mode is RunMode.ASSIGNED and run.due_at == clock() + DAY


async def test_only_a_host_assigns_and_only_into_the_future(
    engine: LessonEngine, store: SqlRunStore, clock: FakeClock
) -> None:
    with pytest.raises(NotHost):
        await engine.assigned.assign(CHANNEL, ALICE, None, clock() + DAY)
    with pytest.raises(BadInput, match="in the future"):
        await engine.assigned.assign(CHANNEL, HOST, None, clock() - DAY)
    with pytest.raises(BadInput, match="before the due time"):
        await engine.assigned.assign(CHANNEL, HOST, None, clock() + DAY, clock() + 2 * DAY)
    assert await store.find_active_run(CHANNEL) is None


async def test_one_run_per_channel_live_or_assigned(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    with pytest.raises(ChannelBusy, match=f"run {run_id}"):
        await engine.start(CHANNEL, HOST)
    with pytest.raises(ChannelBusy):
        await engine.assigned.assign(CHANNEL, HOST, None, clock() + DAY)


async def test_start_begins_a_private_pass_with_the_members_own_next(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    card = card_of(await engine.assigned.begin(run_id, ALICE))
    assert (card.number, card.step_id) == (1, engine.catalog.get().steps[0].id)
    assert not any(b.host_only for b in card.buttons)
    assert button(card, Action.ONWARD)
    progress = (await engine.assigned.card(await engine.open_run(run_id))).counter_text
    assert progress == "1 started · 0 finished"


async def test_a_member_answers_only_their_own_step_and_sees_the_tally_after(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    question = await walk_to(engine, run_id, ALICE, "prediction")
    assert (await engine.assigned.own_step(
        await engine.open_run(run_id), await _pass(engine, run_id, ALICE), ALICE
    )).so_far is None  # nothing before answering

    choice = engine.catalog.get().step_at(question.number - 1).choices[0].id  # type: ignore[union-attr]
    await engine.click(button(question, Action.CHOOSE, choice), ALICE)
    own = await engine.assigned.resume(CHANNEL, ALICE)
    assert own.so_far is not None and own.so_far.title.startswith("So far:")
    assert own.so_far.answered == 1 and "(1 answered)" in own.so_far.title
    assert [b.address.split(":")[3] for b in card_of(own).buttons] == ["onward"]  # chosen

    with pytest.raises(BadInput, match="Press Start"):  # Bob has not started
        await engine.click(button(question, Action.CHOOSE, choice), BOB)
    await engine.assigned.begin(run_id, BOB)  # Bob is at step 1, not at the question
    with pytest.raises(StepClosed, match="not where you are"):
        await engine.click(button(question, Action.CHOOSE, choice), BOB)


async def test_own_next_moves_once_per_click_and_the_last_finishes(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    first = card_of(await engine.assigned.begin(run_id, ALICE))
    twice = await asyncio.gather(
        engine.assigned.onward(run_id, ALICE, first.step_id),
        engine.assigned.onward(run_id, ALICE, first.step_id),
        return_exceptions=True,
    )
    moved = [r for r in twice if isinstance(r, OwnStep)]
    assert len(moved) == 1 and card_of(moved[0]).number == 2
    assert any(isinstance(r, StepClosed) for r in twice)

    card = card_of(moved[0])
    while card.number < card.total:
        card = card_of(await engine.assigned.onward(run_id, ALICE, card.step_id))
    done = await engine.assigned.onward(run_id, ALICE, card.step_id)
    assert done.card is None and "finished" in done.text
    again = await engine.assigned.begin(run_id, ALICE)  # Start again after finishing
    assert again.card is None and "finished" in again.text
    progress = (await engine.assigned.card(await engine.open_run(run_id))).counter_text
    assert progress == "1 started · 1 finished"


async def test_resuming_brings_a_member_back_to_their_step_with_answers_kept(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    question = await walk_to(engine, run_id, ALICE, "prediction")
    choice = engine.catalog.get().step_at(question.number - 1).choices[1].id  # type: ignore[union-attr]
    await engine.click(button(question, Action.CHOOSE, choice), ALICE)
    clock.advance(7 * 24 * 3600 - 60)  # a week later, a minute before it is due
    fresh = LessonEngine(engine.store, engine.checker, engine.catalog, clock)  # a restart
    back = card_of(await fresh.assigned.begin(run_id, ALICE))
    assert back.step_id == question.step_id
    assert card_of(await fresh.assigned.resume(CHANNEL, ALICE)).step_id == question.step_id
    votes = await engine.store.member_votes(run_id, question.step_id, ALICE.user_id)
    assert votes == {"choice": choice}


async def test_closing_happens_once_and_then_refuses_politely(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    question = await walk_to(engine, run_id, ALICE, "prediction")
    await engine.assigned.begin(run_id, CAROL)
    with pytest.raises(NotHost):
        await engine.assigned.close(run_id, ALICE)
    closes = await asyncio.gather(*(engine.assigned.close(run_id, HOST) for _ in range(5)))
    summaries = [summary for summary in closes if summary is not None]
    assert len(summaries) == 1 and summaries[0].run_id == run_id
    run = await engine.run(run_id)
    assert run is not None and run.state is RunState.FINISHED
    with pytest.raises(BadInput, match="closed"):
        await engine.assigned.begin(run_id, BOB)
    choice = engine.catalog.get().step_at(question.number - 1).choices[0].id  # type: ignore[union-attr]
    with pytest.raises(NoActiveRun):
        await engine.click(button(question, Action.CHOOSE, choice), ALICE)
    closed_card = await engine.assigned.card(run)
    assert closed_card.closed and all(b.disabled for b in closed_card.buttons)


async def test_due_assignments_are_found_once_their_time_passes(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    await engine.start(Place("discord", "guild-1", "live"), HOST)
    assert await engine.assigned.due() == []
    clock.advance(DAY.total_seconds() + 1)
    assert [run.id for run in await engine.assigned.due()] == [run_id]
    await engine.assigned.close(run_id)
    assert await engine.assigned.due() == []


async def test_progress_counts_members_at_each_step_for_hosts_only(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    await walk_to(engine, run_id, ALICE, "prediction")
    await engine.assigned.begin(run_id, BOB)
    with pytest.raises(NotHost):
        await engine.assigned.progress(CHANNEL, ALICE)
    run, progress = await engine.assigned.progress(CHANNEL, HOST)
    assert run.id == run_id and (progress.started, progress.finished) == (2, 0)
    assert progress.at_step == {0: 1, 1: 1}


async def _pass(engine: LessonEngine, run_id: int, member: Member) -> MemberPass:
    held = await engine.store.member_pass(run_id, member.user_id)
    assert held is not None
    return held


async def test_forget_me_removes_a_members_place_and_says_so(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    await walk_to(engine, run_id, ALICE, "prediction")
    message = await engine.forget_member(CHANNEL, ALICE)
    assert "1 place in assigned lessons" in message
    assert await engine.store.member_pass(run_id, ALICE.user_id) is None
    _, progress = await engine.assigned.progress(CHANNEL, HOST)
    assert (progress.started, progress.at_step) == (0, {})


async def test_live_host_actions_refuse_an_assignment_and_change_nothing(
    engine: LessonEngine, store: SqlRunStore, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    for act in (
        engine.reveal(run_id, HOST),
        engine.advance(run_id, HOST),
        engine.stop(run_id, HOST),
        engine.repost(CHANNEL, HOST),
    ):
        with pytest.raises(BadInput, match="is an assignment; use `/lesson close`"):
            await act
    run = await store.get_run(run_id)
    assert run is not None and run.state is RunState.ACTIVE and run.step_index == 0
    assert IS_ASSIGNMENT.startswith("This channel's lesson is an assignment")


async def answer_question(engine: LessonEngine, run_id: int, member: Member) -> StepCard:
    """Start a member's pass, walk to the first question and choose its first choice there."""
    question = await walk_to(engine, run_id, member, "prediction")
    choice = engine.catalog.get().step_at(question.number - 1).choices[0].id  # type: ignore[union-attr]
    await engine.click(button(question, Action.CHOOSE, choice), member)
    return question


async def finish_from(engine: LessonEngine, run_id: int, member: Member, card: StepCard) -> None:
    """Press a member's own Next from `card` until they have finished the lesson."""
    while True:
        own = await engine.assigned.onward(run_id, member, card.step_id)
        if own.card is None:
            return
        card = own.card


async def test_an_assignments_results_count_who_started_and_finished_not_the_runs_step(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    await finish_from(engine, run_id, ALICE, await answer_question(engine, run_id, ALICE))
    await answer_question(engine, run_id, BOB)
    await engine.assigned.begin(run_id, CAROL)
    still_open = await engine.results(run_id)
    assert still_open.lines[0] == "Assigned lesson, open: 3 started · 2 answered · 1 finished."
    summary = await engine.assigned.close(run_id, HOST)
    assert summary is not None
    assert summary.lines[0] == "Assigned lesson, closed: 3 started · 2 answered · 1 finished."
    assert not any("step 1 of" in line for line in summary.lines)
    assert not any("took part" in line for line in summary.lines)  # Carol answered nothing
    assert summary.chart is not None and "(2 answered)" in summary.chart.title
    assert (await engine.results(run_id)).lines == summary.lines


async def test_an_assignments_recall_question_promises_what_its_member_sees_not_a_reveal(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    recall = await walk_to_step(engine, run_id, ALICE, "what-changed-again")
    assert "reveal" not in recall.body.lower()
    assert recall.body.endswith(
        "Once you answer, you see how your own answer moved and how everyone's moved so far."
    )
    live = await engine.start(Place("discord", "guild-1", "live"), HOST)
    while live.step_id != "what-changed-again":
        advanced = await engine.advance(live.run_id, HOST)
        assert advanced.card is not None
        live = advanced.card
    assert live.body.endswith("The reveal shows how this channel's answers moved.")


async def test_an_assignments_texts_promise_no_reveal_and_no_host(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    card = card_of(await engine.assigned.begin(run_id, ALICE))
    texts = []
    while True:
        texts += [card.body, *(section.text for section in card.sections)]
        own = await engine.assigned.onward(run_id, ALICE, card.step_id)
        if own.card is None:
            break
        card = own.card
    texts.append(own.text)
    summary = await engine.assigned.close(run_id, HOST)
    assert summary is not None
    texts += summary.lines
    live_words = ("reveal", "the host", "together", "took part")
    assert [text for text in texts if any(word in text.lower() for word in live_words)] == []


async def test_an_assignments_export_has_a_row_for_each_member_who_started(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    clock.advance(60)
    alice_started = clock()
    question = await answer_question(engine, run_id, ALICE)
    clock.advance(60)
    bob_started = clock()
    await answer_question(engine, run_id, BOB)
    clock.advance(60)
    carol_started = clock()
    await engine.assigned.begin(run_id, Member("carol", "=Carol"))  # opens it, answers nothing
    clock.advance(600)
    await finish_from(engine, run_id, ALICE, question)
    exported = await engine.export_run(run_id, HOST, CHANNEL)
    assert exported.splitlines()[0] == (
        "run,step,kind,user_id,name,value,reward,try,at,recalls,reason,started_at,finished_at"
    )
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [(r["user_id"], r["step"], r["started_at"], r["finished_at"]) for r in rows] == [
        ("alice", question.step_id, alice_started.isoformat(), clock().isoformat()),
        ("bob", question.step_id, bob_started.isoformat(), ""),
        ("carol", "", carol_started.isoformat(), ""),
    ]
    assert rows[0]["started_at"] == "2026-01-01T12:01:00+00:00"
    assert rows[2] == {
        "run": str(run_id), "step": "", "kind": "", "user_id": "carol", "name": "'=Carol",
        "value": "", "reward": "", "try": "", "at": "", "recalls": "",
        "reason": "", "started_at": carol_started.isoformat(), "finished_at": "",
    }
async def test_own_steps_work_privately_but_start_only_in_the_channel(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    direct = Place(CHANNEL.platform, CHANNEL.workspace, "D-alice")
    elsewhere = Place(CHANNEL.platform, "another-workspace", "D-alice")
    start = Address(run_id, engine.catalog.get().steps[0].id, Action.START)
    with pytest.raises(BadAddress):  # Start comes from the channel's card only
        await engine.click(start, ALICE, direct)
    assert (await engine.assigned.progress(CHANNEL, HOST))[1].started == 0

    first = card_of((await engine.click(start, ALICE, CHANNEL)).own)  # type: ignore[arg-type]
    onward = button(first, Action.ONWARD)
    with pytest.raises(BadAddress):  # another workspace's member cannot reach this run
        await engine.click(onward, ALICE, elsewhere)
    second = card_of((await engine.click(onward, ALICE, direct)).own)  # type: ignore[arg-type]
    assert second.number == 2


async def test_a_live_run_takes_clicks_only_from_its_own_channel(
    engine: LessonEngine,
) -> None:
    post = await engine.start(CHANNEL, HOST)
    direct = Place(CHANNEL.platform, CHANNEL.workspace, "D-alice")
    with pytest.raises(BadAddress):
        await engine.click(Address(post.run_id, post.step_id, Action.MORE), ALICE, direct)


async def test_the_reminder_is_owed_to_members_who_started_until_each_is_reminded(
    engine: LessonEngine, clock: FakeClock
) -> None:
    card = await engine.assigned.assign(CHANNEL, HOST, None, clock() + 3 * DAY, clock() + DAY)
    run_id = card.run_id
    for member in (ALICE, BOB, CAROL):
        await engine.assigned.begin(run_id, member)
    await engine.assigned.unreachable(run_id, BOB.user_id)
    assert await engine.assigned.assignments_to_remind() == []
    clock.advance(DAY.total_seconds() + 1)
    await engine.assigned.begin(run_id, Member("dave", "Dave"))  # after the reminder time
    (due,) = await engine.assigned.assignments_to_remind()
    owed = await engine.assigned.owed_reminders(due.id)
    assert [held.user_id for held in owed] == [ALICE.user_id, CAROL.user_id]  # not Bob, Dave
    assert await engine.assigned.claim_reminder(run_id, ALICE.user_id, "here")
    assert not await engine.assigned.claim_reminder(run_id, ALICE.user_id, "there")  # held
    await engine.assigned.reminded(run_id, ALICE.user_id)
    assert await engine.assigned.claim_reminder(run_id, CAROL.user_id, "here")
    await engine.assigned.unclaim_reminder(run_id, CAROL.user_id, "here")  # got no answer
    assert not await engine.assigned.finish_reminder(run_id)  # Carol is still owed hers
    assert [held.user_id for held in await engine.assigned.owed_reminders(run_id)] == [
        CAROL.user_id
    ]
    assert await engine.assigned.claim_reminder(run_id, CAROL.user_id, "there")
    await engine.assigned.reminded(run_id, CAROL.user_id)
    assert await engine.assigned.finish_reminder(run_id)
    assert await engine.assigned.assignments_to_remind() == []
    assert (await engine.assigned.progress(CHANNEL, HOST))[1].unreachable == 1


async def test_the_recall_question_shows_the_members_own_move_beside_the_channels(
    engine: LessonEngine, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    first = await walk_to(engine, run_id, ALICE, "prediction")
    await engine.click(button(first, Action.CHOOSE, "bigger-model"), ALICE)
    card = first
    while card.step_id != "what-changed-again":
        card = card_of(await engine.assigned.onward(run_id, ALICE, card.step_id))
    await engine.click(button(card, Action.CHOOSE, "checkable-reward"), ALICE)
    so_far = (await engine.assigned.resume(CHANNEL, ALICE)).so_far
    assert so_far is not None
    assert so_far.notes[0] == "You moved to the right answer."
    assert any("1 moved to the right answer, 0 held it, 0 left it" in n for n in so_far.notes)


async def test_more_on_a_question_opens_to_a_member_once_they_answered_it(
    engine: LessonEngine, store: SqlRunStore, clock: FakeClock
) -> None:
    run_id = await assign(engine, clock)
    lesson = engine.catalog.get()
    step = lesson.step_by_id("be-the-checker")
    assert step.more
    card = await walk_to_step(engine, run_id, ALICE, step.id)
    more = button(card, Action.MORE)  # shown beside the member's own Next
    direct = Place(CHANNEL.platform, CHANNEL.workspace, "D-alice")
    with pytest.raises(BadInput, match="opens once you have answered it"):
        await engine.click(more, ALICE, direct)
    assert await store.member_votes(run_id, step.id, ALICE.user_id) == {}
    assert await store.export_answers(run_id) == []  # refused: nothing stored

    attempt = card.buttons[0].address.split(":")[4]
    await engine.click(button(card, Action.UP, attempt), ALICE, direct)
    told = (await engine.click(more, ALICE, direct)).receipt
    assert told is not None and told.text == step.more and not told.counted
    assert len(await store.export_answers(run_id)) == 1  # reading stored nothing more

    await walk_to_step(engine, run_id, BOB, step.id)
    with pytest.raises(BadInput, match="opens once you have answered it"):
        await engine.click(more, BOB, direct)
    await engine.assigned.close(run_id, HOST)
    after = (await engine.click(more, BOB, CHANNEL)).receipt  # the results are out: for all
    assert after is not None and after.text == step.more
