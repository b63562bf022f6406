"""Members' data: forgetting a member, exporting a run, and reveals that stay as revealed."""

from __future__ import annotations

import csv
import io
import unicodedata

import pytest

from bot.engine import LessonEngine
from bot.engine.checks import TURNED_AWAY_LIMIT
from bot.model import (
    CheckerFailed,
    ChecksPaused,
    Member,
    NoActiveRun,
    NotHost,
    Place,
    RunElsewhere,
    UnknownRun,
)
from bot.slack_adapter.host_rights import HostRights
from bot.verifier.errors import BUSY
from lessons.schema import PredictionStep, VerifierStep
from storage import SqlRunStore
from tests.engine.helpers import ALICE, BOB, CHANNEL, HOST, start_at
from tests.storage.traces import traces_of


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
    assert message.startswith("Done: removed 1 stored answer (1 choice or rating,")
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


async def test_a_live_runs_export_has_no_columns_of_assigned_passes(engine: LessonEngine) -> None:
    run_id, _ = await answered_prediction(engine)
    exported = await engine.export_run(run_id, HOST, CHANNEL)
    header = "run,step,kind,user_id,name,value,reward,try,at,recalls,reason"
    assert exported.splitlines()[0] == header
    assert all(line.count(",") == 10 for line in exported.splitlines())


def formula_cells(exported: str) -> list[str]:
    """Cells a spreadsheet would run as formulas, splitting lines at any locale's separator."""
    cells = [part for line in exported.splitlines() for sep in ",;\t|" for part in line.split(sep)]
    return [cell for cell in cells if unicodedata.normalize("NFKC", cell.lstrip(' "'))[:1]
            in set("=+-@")]


async def test_no_cell_runs_as_a_formula_whatever_the_separator_or_form_of_equals(
    engine: LessonEngine,
) -> None:
    run_id, step = await answered_prediction(engine)
    names = {"eve": "a;=2+3", "fay": "＝1+1", "gus": "x, @SUM(A1)", "hal": "b|\t-1",
             "ida": '"=1+1', "jo": 'x;"=2+2'}
    for user_id, name in names.items():
        await engine.choose(run_id, step.id, Member(user_id, name), step.choices[0].id)
    exported = await engine.export_run(run_id, HOST, CHANNEL)
    assert formula_cells(exported) == []
    shown = {r["user_id"]: r["name"] for r in csv.DictReader(io.StringIO(exported))}
    assert shown["eve"] == "a;'=2+3" and shown["fay"] == "'＝1+1"
    assert shown["gus"] == "x, '@SUM(A1)" and shown["alice"] == "Alice"
    assert shown["ida"] == "\"'=1+1" and shown["jo"] == "x;\"'=2+2"


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


FAY = Member("U0FAY4242", "Forgettable Fay", is_host=True)
TEAM = Place("slack", "T0TEAM", "C0LESSONS")


async def fay_hosts_and_answers_everything(engine: LessonEngine) -> int:
    """A run Fay hosts in which she chooses, rates, runs the checker and types an answer."""
    card = await engine.start(TEAM, FAY)
    run_id = card.run_id
    while card.kind != "free_answer":
        step = engine.catalog.get().step_by_id(card.step_id)
        if isinstance(step, PredictionStep):
            await engine.choose(run_id, step.id, FAY, step.choices[0].id)
            await engine.choose(run_id, step.id, Member("U0ALICE", "Alice"), step.choices[1].id)
        if isinstance(step, VerifierStep):
            for attempt in step.attempts:
                await engine.rate(run_id, step.id, FAY, attempt.id, True)
            await engine.run_checker(run_id, step.id, FAY, step.attempts[0].id)
        advance = await engine.advance(run_id, FAY)
        assert advance.card is not None
        card = advance.card
    await engine.submit_answer(run_id, card.step_id, FAY, "42", TEAM)
    await engine.reveal(run_id, FAY)
    return run_id


async def test_forget_me_leaves_the_members_id_in_no_table_or_column(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    run_id = await fay_hosts_and_answers_everything(engine)
    await engine.first_delivery("slack", f"action:{FAY.user_id}:1700000000.000100")
    await engine.first_delivery("slack", "action:U0ALICE:1700000000.000200")
    await engine.first_delivery("slack", "trigger:1700000000.123.abc")
    assert "members.user_id" in await traces_of(store, FAY.user_id)

    await engine.forget_member(TEAM, FAY)
    assert await traces_of(store, FAY.user_id) == []
    assert await traces_of(store, FAY.name) == []
    assert "members.user_id" in await traces_of(store, "U0ALICE")
    assert "deliveries.delivery_id" in await traces_of(store, "U0ALICE")
    assert not await engine.first_delivery("slack", "trigger:1700000000.123.abc")
    assert (await engine.results_here(TEAM)).run_id == run_id


async def test_forget_me_says_exactly_what_it_removed_and_blanked(engine: LessonEngine) -> None:
    run_id = await fay_hosts_and_answers_everything(engine)
    stored = await engine.store.export_answers(run_id)
    votes = len([answer for answer in stored if answer.user_id == FAY.user_id])
    await engine.first_delivery("slack", f"action:{FAY.user_id}:1700000000.000100")
    await engine.start(Place("slack", "T0TEAM", "C0OTHER"), FAY)
    message = await engine.forget_member(TEAM, FAY)
    assert message == (
        f"Done: removed {votes} stored answers ({votes - 2} choices and ratings, 1 checker run, "
        "1 typed answer), 1 member record (id and display name) and 1 record of clicks kept "
        "to spot repeats; blanked the host id on 2 runs hosted. Results already revealed keep "
        "their counts; nothing stored here refers to you any more."
    )
    assert (await engine.forget_member(TEAM, FAY)).startswith("Nothing of yours")


async def test_the_preview_counts_what_forgetting_would_do_and_changes_nothing(
    engine: LessonEngine, store: SqlRunStore
) -> None:
    run_id = await fay_hosts_and_answers_everything(engine)
    traces_before = await traces_of(store, FAY.user_id)
    stored_before = await engine.store.export_answers(run_id)
    preview = await engine.forget_preview(TEAM, FAY)
    assert preview.startswith("Nothing is deleted yet. Forgetting you would remove ")
    assert preview.endswith("To go ahead, run the command again with `confirm`.")
    assert await traces_of(store, FAY.user_id) == traces_before
    assert await engine.store.export_answers(run_id) == stored_before

    done = await engine.forget_member(TEAM, FAY)
    counts = done.removeprefix("Done: removed ").split(". Results")[0]
    assert counts.replace("blanked", "blank") in preview
    assert await engine.forget_preview(TEAM, FAY) == (
        "Nothing of yours is stored here, so there is nothing to remove."
    )


async def test_forget_me_also_clears_the_member_from_this_process_memory(
    engine: LessonEngine,
) -> None:
    run_id = await fay_hosts_and_answers_everything(engine)

    async def admins(user_id: str, _workspace: str) -> bool:
        return user_id == FAY.user_id

    hosts = HostRights(admins)
    engine.on_forget(hosts.forget)
    assert await hosts.is_host(FAY.user_id, TEAM.workspace) and hosts.remembered() == 1
    for _ in range(TURNED_AWAY_LIMIT):
        with pytest.raises(CheckerFailed), engine.members.turns.turn(TEAM, FAY.user_id):
            raise CheckerFailed(BUSY, turned_away=True)
    with pytest.raises(ChecksPaused), engine.members.turns.turn(TEAM, FAY.user_id):
        pass
    kept = await engine.known_runs.get(run_id)
    assert kept is not None and kept.host_id == FAY.user_id

    await engine.forget_member(TEAM, FAY)
    kept = await engine.known_runs.get(run_id)
    assert kept is not None and kept.host_id == ""
    assert hosts.remembered() == 0 and engine.members.turns.paused() == 0
    with engine.members.turns.turn(TEAM, FAY.user_id):
        pass
