"""Members' data: forgetting a member, exporting a run, and reveals that stay as revealed."""

from __future__ import annotations

import csv
import io

import pytest

from bot.engine import (
    LessonEngine,
    Member,
    NoActiveRun,
    NotHost,
    Place,
    RunElsewhere,
    UnknownRun,
)
from lessons.schema import PredictionStep
from storage import SqlRunStore
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at


async def answered_prediction(engine: LessonEngine) -> tuple[int, PredictionStep]:
    card = await start_at(engine, "prediction")
    step = engine.catalog.get().step_by_id(card.step_id)
    assert isinstance(step, PredictionStep)
    await engine.choose(card.run_id, step.id, ALICE, step.choices[0].id)
    await engine.choose(card.run_id, step.id, BOB, step.choices[1].id)
    return card.run_id, step


async def test_forget_me_removes_the_members_answers(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    run_id, step = await answered_prediction(engine)
    message = await engine.forget_member(CHANNEL, ALICE)
    assert message.startswith("Removed 1 stored answers")
    assert await store.member_votes(run_id, step.id, ALICE.user_id) == {}
    assert await store.count_participants(run_id, step.id) == 1
    again = await engine.forget_member(CHANNEL, ALICE)
    assert again.startswith("Nothing of yours")


async def test_revealed_counts_stay_after_a_member_is_forgotten(engine: LessonEngine) -> None:
    run_id, step = await answered_prediction(engine)
    _, before = await engine.reveal(run_id, HOST)
    await engine.forget_member(CHANNEL, ALICE)
    run = await engine.store.get_run(run_id)
    assert run is not None
    after = await engine.views.reveal_card(run, step)
    assert [bar.count for bar in after.bars] == [bar.count for bar in before.bars]
    assert after.answered == before.answered == 2


async def test_forgetting_is_per_workspace(engine: LessonEngine, store: SqlRunStore) -> None:
    run_id, step = await answered_prediction(engine)
    await engine.forget_member(Place("discord", "another-guild", "c"), ALICE)
    kept = await store.member_votes(run_id, step.id, ALICE.user_id)
    assert kept == {"choice": step.choices[0].id}


async def test_a_host_exports_a_run_as_csv(engine: LessonEngine) -> None:
    run_id, step = await answered_prediction(engine)
    await engine.choose(run_id, step.id, Member("eve", "=HYPERLINK(\"x\")"), step.choices[0].id)
    rows = list(csv.DictReader(io.StringIO(await engine.export_run(run_id, HOST, CHANNEL))))
    assert [(r["user_id"], r["kind"], r["value"]) for r in rows] == [
        ("alice", "choice", step.choices[0].id),
        ("bob", "choice", step.choices[1].id),
        ("eve", "choice", step.choices[0].id),
    ]
    assert rows[2]["name"].startswith("'=")


async def test_export_needs_a_host_of_the_runs_workspace(engine: LessonEngine) -> None:
    run_id, _ = await answered_prediction(engine)
    with pytest.raises(NotHost):
        await engine.export_run(run_id, ALICE, CHANNEL)
    with pytest.raises(UnknownRun):
        await engine.export_run(run_id, HOST, Place("discord", "another-guild", "c"))
    with pytest.raises(UnknownRun):
        await engine.export_run(run_id + 1000, HOST, CHANNEL)


async def test_export_here_refuses_a_member_before_looking_for_a_run(
    engine: LessonEngine,
) -> None:
    with pytest.raises(NotHost, match="export a run's answers"):
        await engine.export_here(Place("discord", "guild-1", "empty"), ALICE)
    with pytest.raises(NoActiveRun):
        await engine.export_here(Place("discord", "guild-1", "empty"), HOST)


async def test_export_here_takes_the_channels_run_or_the_one_named(engine: LessonEngine) -> None:
    run_id, _ = await answered_prediction(engine)
    await engine.stop(run_id, HOST)
    chosen, table = await engine.export_here(CHANNEL, HOST)
    assert chosen == run_id and table == await engine.export_run(run_id, HOST, CHANNEL)
    with pytest.raises(UnknownRun):
        await engine.export_here(CHANNEL, HOST, run_id + 1000)


async def test_a_run_is_exported_only_from_the_channel_it_was_held_in(
    engine: LessonEngine,
) -> None:
    run_id, _ = await answered_prediction(engine)
    elsewhere = Place(CHANNEL.platform, CHANNEL.workspace, "general")
    with pytest.raises(RunElsewhere, match="held in another channel; run the export there"):
        await engine.export_run(run_id, HOST, elsewhere)
    with pytest.raises(RunElsewhere):
        await engine.export_here(elsewhere, HOST, run_id)
    assert len((await engine.export_run(run_id, HOST, CHANNEL)).splitlines()) == 3


async def test_results_and_repost_read_only_this_channels_run(engine: LessonEngine) -> None:
    run_id, _ = await answered_prediction(engine)
    elsewhere = Place(CHANNEL.platform, CHANNEL.workspace, "general")
    with pytest.raises(NoActiveRun):
        await engine.results_here(elsewhere)
    with pytest.raises(NoActiveRun):
        await engine.repost(elsewhere, HOST)
    assert (await engine.results_here(CHANNEL)).run_id == run_id
