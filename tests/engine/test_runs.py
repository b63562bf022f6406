"""Starting, moving and ending runs: the state machine and its refusals."""

from __future__ import annotations

import pytest

from bot.engine import Action, Address, LessonEngine, MovedOn, TimerFired
from bot.model import (
    BadAddress,
    BadInput,
    ChannelBusy,
    Member,
    NoActiveRun,
    NotHost,
    Phase,
    Place,
    RevealCard,
    RunState,
    StepCard,
    StepClosed,
    UnknownLesson,
    WrongStep,
)
from storage import SqlRunStore
from tests.engine.helpers import ALICE, CHANNEL, HOST, start_at


async def test_start_shows_the_first_step_and_stores_an_active_run(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await engine.start(CHANNEL, HOST)
    lesson = engine.catalog.get()
    assert (card.number, card.total, card.title) == (1, len(lesson.steps), lesson.steps[0].title)
    run = await store.find_active_run(CHANNEL)
    assert run is not None and run.id == card.run_id and run.host_id == HOST.user_id
    assert (run.lesson_id, run.lesson_version) == (lesson.id, lesson.version)


async def test_a_member_without_rights_cannot_start(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    with pytest.raises(NotHost, match="Only a lesson host"):
        await engine.start(CHANNEL, ALICE)
    assert await store.find_active_run(CHANNEL) is None


async def test_a_second_run_in_a_busy_channel_is_refused(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    first = await engine.start(CHANNEL, HOST)
    with pytest.raises(ChannelBusy, match="already running"):
        await engine.start(CHANNEL, HOST)
    run = await store.find_active_run(CHANNEL)
    assert run is not None and run.id == first.run_id and run.step_index == 0


async def test_other_channels_run_at_the_same_time(engine: LessonEngine) -> None:
    cards = [await engine.start(Place("discord", "g", f"c{n}"), HOST) for n in range(5)]
    assert len({card.run_id for card in cards}) == 5


async def test_unknown_lesson_is_refused_with_the_list(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    with pytest.raises(UnknownLesson, match=r"no lesson called 'nope'.*rlvr"):
        await engine.start(CHANNEL, HOST, "nope")
    assert await store.find_active_run(CHANNEL) is None


@pytest.mark.parametrize("seconds", [0, 5, 100_000])
async def test_a_timer_out_of_range_is_refused(
    engine: LessonEngine, store: SqlRunStore, seconds: int
) -> None:
    with pytest.raises(BadInput, match="between"):
        await engine.start(CHANNEL, HOST, timer_seconds=seconds)
    assert await store.find_active_run(CHANNEL) is None


async def test_narration_has_nothing_to_reveal(engine: LessonEngine) -> None:
    card = await start_at(engine, "narration")
    with pytest.raises(WrongStep):
        await engine.reveal(card.run_id, HOST)


async def test_reveal_then_next_moves_one_step(engine: LessonEngine, store: SqlRunStore) -> None:
    card = await start_at(engine, "prediction")
    closed, reveal = await engine.reveal(card.run_id, HOST)
    assert closed.closed and all(button.disabled for button in closed.buttons)
    assert reveal.step_id == card.step_id
    with pytest.raises(StepClosed, match="already revealed"):
        await engine.reveal(card.run_id, HOST)
    advance = await engine.advance(card.run_id, HOST)
    assert advance.card is not None and advance.card.number == card.number + 1
    run = await store.get_run(card.run_id)
    assert run is not None and run.position.phase is Phase.OPEN


async def test_next_on_an_open_question_reveals_it_first(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    advance = await engine.advance(card.run_id, HOST)
    assert advance.reveal is not None and advance.reveal.step_id == card.step_id
    assert advance.card is not None and advance.card.number == card.number + 1


async def test_host_buttons_refuse_members_and_change_nothing(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "prediction")
    for action in (engine.reveal, engine.advance):
        with pytest.raises(NotHost):
            await action(card.run_id, ALICE)
    with pytest.raises(NotHost):
        await engine.stop(card.run_id, ALICE)
    run = await store.get_run(card.run_id)
    assert run is not None and run.state is RunState.ACTIVE
    assert run.position.step_index == card.number - 1 and run.position.phase is Phase.OPEN


async def test_a_button_from_an_earlier_step_is_refused(engine: LessonEngine) -> None:
    first = await engine.start(CHANNEL, HOST)
    await engine.advance(first.run_id, HOST)
    with pytest.raises(StepClosed, match="moved on"):
        await engine.advance(first.run_id, HOST, first.step_id)


async def test_the_whole_lesson_ends_with_a_summary(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await engine.start(CHANNEL, HOST)
    summary = None
    for _ in range(card.total):
        advance = await engine.advance(card.run_id, HOST)
        summary = advance.summary
        if advance.card is None:
            break
    assert summary is not None and summary.finished
    run = await store.get_run(card.run_id)
    assert run is not None and run.state is RunState.FINISHED
    assert await store.find_active_run(CHANNEL) is None
    with pytest.raises(NoActiveRun):
        await engine.advance(card.run_id, HOST)
    await engine.start(CHANNEL, HOST)  # the channel is free again


async def test_stop_ends_the_run_and_frees_the_channel(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await start_at(engine, "prediction")
    choice = card.buttons[0].address.rsplit(":", 1)[1]
    summary = await engine.stop(card.run_id, HOST)
    assert not summary.finished and "Stopped early" in summary.lines[0]
    lesson = engine.catalog.get()
    assert summary.lines[0] == (
        f"Stopped early, step {card.number} of {len(lesson.steps)}."
    )
    with pytest.raises(NoActiveRun):
        await engine.choose(card.run_id, card.step_id, ALICE, choice)
    assert await store.find_active_run(CHANNEL) is None
    assert await store.count_participants(card.run_id, card.step_id) == 0


async def test_run_in_without_a_run_says_so(engine: LessonEngine) -> None:
    with pytest.raises(NoActiveRun, match="No lesson is running"):
        await engine.run_in(Place("slack", "T1", "C1"))


async def test_a_run_is_found_by_id_in_any_state_while_open_or_by_its_channel(
    engine: LessonEngine,
) -> None:
    card = await engine.start(CHANNEL, HOST)
    await engine.stop(card.run_id, HOST)
    stopped = await engine.run(card.run_id)
    assert stopped is not None and stopped.state is RunState.STOPPED
    assert await engine.run(card.run_id + 1000) is None
    with pytest.raises(NoActiveRun):
        await engine.open_run(card.run_id)
    with pytest.raises(NoActiveRun):
        await engine.run_in(CHANNEL)
    assert (await engine.run_in(CHANNEL, or_latest=True)).id == card.run_id
    again = await engine.start(CHANNEL, HOST)
    assert (await engine.open_run(again.run_id)).id == again.run_id
    assert (await engine.run_in(CHANNEL, or_latest=True)).id == again.run_id


async def test_repost_gives_a_host_the_current_card(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    with pytest.raises(NotHost, match="post the step again"):
        await engine.repost(Place("slack", "T1", "C1"), ALICE)
    with pytest.raises(NoActiveRun):
        await engine.repost(Place("slack", "T1", "C1"), HOST)
    again = await engine.repost(CHANNEL, HOST)
    assert again == await engine.current_card(card.run_id)
    assert isinstance(again, StepCard) and (again.step_id, again.closed) == (card.step_id, False)


async def test_repost_of_a_revealed_question_gives_only_its_results(
    engine: LessonEngine,
) -> None:
    card = await start_at(engine, "prediction")
    _, shown = await engine.reveal(card.run_id, HOST)
    results = await engine.repost(CHANNEL, HOST)
    assert isinstance(results, RevealCard) and results.step_id == card.step_id
    assert results == shown and results.chart is not None


async def test_only_a_revealed_question_has_results_to_retire(engine: LessonEngine) -> None:
    card = await start_at(engine, "prediction")
    run = await engine.run_in(CHANNEL)
    assert await engine.passed_reveal(run) is None
    _, shown = await engine.reveal(card.run_id, HOST)
    left = await engine.passed_reveal(await engine.run_in(CHANNEL))
    assert left is not None and left.step_id == shown.step_id
    assert {b.label: b.disabled for b in left.buttons}["Next"]
    assert not any(b.disabled for b in shown.buttons)


async def test_active_runs_are_listed_per_platform(engine: LessonEngine) -> None:
    card = await engine.start(CHANNEL, HOST)
    other = await engine.start(Place("slack", "T1", "C1"), HOST)
    assert [run.id for run in await engine.active_runs(CHANNEL.platform)] == [card.run_id]
    assert [run.id for run in await engine.active_runs("slack")] == [other.run_id]
    await engine.stop(card.run_id, HOST)
    assert await engine.active_runs(CHANNEL.platform) == []


async def fire_due_timers(engine: LessonEngine) -> list[TimerFired]:
    """Fire every due timer, as the service's timer loop does (without posting)."""
    fired = [await engine.fire_timer(run.id) for run in await engine.due_runs(None)]
    return [event for event in fired if event is not None]


async def test_timers_reveal_then_advance_once(engine: LessonEngine, clock: object) -> None:
    card = await engine.start(CHANNEL, HOST, timer_seconds=30)
    assert await fire_due_timers(engine) == []
    clock.advance(31)  # type: ignore[attr-defined]
    fired = await fire_due_timers(engine)
    assert len(fired) == 1 and fired[0].advance is not None  # narration: moves on
    assert fired[0].advance.card is not None and fired[0].advance.card.number == 2
    assert await fire_due_timers(engine) == []
    clock.advance(31)  # type: ignore[attr-defined]
    fired = await fire_due_timers(engine)
    assert len(fired) == 1 and fired[0].reveal is not None  # a question: revealed first
    assert fired[0].reveal[1].step_id == engine.catalog.get().steps[1].id
    assert card.run_id == fired[0].run.id


async def test_two_timer_loops_fire_a_deadline_once(engine: LessonEngine, clock: object) -> None:
    import asyncio

    await engine.start(CHANNEL, HOST, timer_seconds=30)
    clock.advance(31)  # type: ignore[attr-defined]
    first, second = await asyncio.gather(fire_due_timers(engine), fire_due_timers(engine))
    assert len(first) + len(second) == 1


async def test_a_member_name_cannot_make_them_a_host(engine: LessonEngine) -> None:
    with pytest.raises(NotHost):
        await engine.start(CHANNEL, Member("mallory", "Hosting Hana"))


async def test_a_forged_button_cannot_act_on_another_channels_run(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    card = await engine.start(CHANNEL, HOST)
    elsewhere = Place("discord", "guild-2", "channel-9")
    forged = Address(card.run_id, card.step_id, Action.NEXT)
    with pytest.raises(BadAddress):
        await engine.click(forged, HOST, elsewhere)
    with pytest.raises(BadAddress):
        await engine.submit_answer(card.run_id, card.step_id, HOST, "3/4", elsewhere)
    run = await store.get_run(card.run_id)
    assert run is not None and run.step_index == 0
    result = await engine.click(forged, HOST, CHANNEL)
    assert isinstance(result, MovedOn) and result.advance.card is not None
