"""Members' data through Slack: forget-me for anyone, export for hosts, forged buttons refused."""

from __future__ import annotations

import csv
import io

from bot.engine import LessonEngine, parse_address
from bot.model import Place
from fakes.fake_slack import TEAM_ID, block_texts, dm_channel
from fakes.slack_driver import ALICE, BOB, CHANNEL, HOST, SlackDriver
from storage import SqlRunStore
from tests.storage.traces import traces_of

PLACE = Place("slack", TEAM_ID, CHANNEL)
OTHER_CHANNEL = "COTHER"
RIGHT = "A new training stage"
BIGGER = "A bigger model"


async def answered_question(slack: SlackDriver) -> int:
    """A run at its first question, answered by Alice and Bob; the run id."""
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.click(slack.button(question, BIGGER), BOB, question)
    await slack.wait_ephemeral(ALICE, "You chose")
    await slack.wait_ephemeral(BOB, "You chose")
    return parse_address(slack.button(question, RIGHT)).run_id


async def test_forget_me_removes_the_members_answers_and_reveals_keep_their_counts(
    slack: SlackDriver, store: SqlRunStore
) -> None:
    run_id = await answered_question(slack)
    assert await slack.command("reveal") == 200
    await slack.wait_post("Results: Same brain")
    assert await slack.command("forget-me", ALICE) == 200
    preview = await slack.wait_ephemeral(ALICE, "would remove 1 stored answer (")
    assert "with `confirm`" in preview.args["text"]
    assert len(await store.export_answers(run_id)) == 2
    assert await slack.command("forget-me confirm", ALICE) == 200
    reply = await slack.wait_ephemeral(ALICE, "Done: removed 1 stored answer (")
    assert "keep their counts" in reply.args["text"]
    assert await store.member_votes(run_id, "what-changed", ALICE) == {}
    assert await store.member_votes(run_id, "what-changed", BOB) == {"choice": "bigger-model"}
    assert {r.user_id for r in await store.export_answers(run_id)} == {BOB}
    assert await slack.command("results", BOB) == 200
    results = await slack.wait_ephemeral(BOB, "Results: RLVR")
    assert "1 of 2 right (50%)" in block_texts(results.args["blocks"])
    assert await slack.command("forget-me confirm", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Nothing of yours is stored here")


async def test_export_is_refused_to_a_member_and_changes_nothing(
    slack: SlackDriver, store: SqlRunStore
) -> None:
    run_id = await answered_question(slack)
    assert await slack.command(f"export {run_id}", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Only a lesson host can export a run's answers.")
    assert slack.fake.calls_to("conversations.open") == []
    assert slack.fake.calls_to("files.completeUploadExternal") == []
    assert len(await store.export_answers(run_id)) == 2


async def test_export_sends_the_host_a_csv_in_a_direct_message(
    slack: SlackDriver, store: SqlRunStore
) -> None:
    run_id = await answered_question(slack)
    assert await slack.command(f"export {run_id}") == 200
    told = await slack.wait_ephemeral(HOST, f"Run {run_id}: 2 stored answers.")
    assert f"Sent to you in a direct message as `run-{run_id}.csv`" in told.args["text"]
    assert [c.args["users"] for c in slack.fake.calls_to("conversations.open")] == [HOST]
    [shared] = slack.fake.shared_files(dm_channel(HOST))
    names = [c.args["filename"] for c in slack.fake.calls_to("files.getUploadURLExternal")]
    assert [name for name in names if name.endswith(".csv")] == [f"run-{run_id}.csv"]
    assert slack.fake.shared_files(CHANNEL) == []
    rows = list(csv.DictReader(io.StringIO(shared.decode())))
    stored = await store.export_answers(run_id)
    assert [(r["user_id"], r["step"], r["value"]) for r in rows] == [
        (a.user_id, a.step_id, a.value) for a in stored
    ]
    assert {(r["user_id"], r["value"]) for r in rows} == {
        (ALICE, "checkable-reward"),
        (BOB, "bigger-model"),
    }


async def test_export_of_an_unknown_run_or_bad_id_is_explained(slack: SlackDriver) -> None:
    await answered_question(slack)
    assert await slack.command("export 999") == 200
    await slack.wait_ephemeral(HOST, "There is no run 999 in this workspace.")
    assert await slack.command("export last") == 200
    await slack.wait_ephemeral(HOST, "Usage: `/lesson export [run id]`")
    assert slack.fake.calls_to("files.completeUploadExternal") == []


async def test_a_forged_button_naming_a_run_in_another_channel_is_refused(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    other = Place("slack", TEAM_ID, OTHER_CHANNEL)
    assert await slack.command("start", channel=OTHER_CHANNEL) == 200
    assert await slack.command("next", channel=OTHER_CHANNEL) == 200
    await slack.wait_post("Step 2/")
    other_run = await engine.run_in(other)
    await slack.start()
    forged = f"rl:{other_run.id}:what-changed:choose:checkable-reward"
    assert await slack.click(forged, ALICE, channel=CHANNEL) == 200
    await slack.wait_ephemeral(ALICE, "That button is not one this bot understands.")
    assert await store.count_participants(other_run.id, "what-changed") == 0
    assert await store.export_answers(other_run.id) == []
    reveal = f"rl:{other_run.id}:what-changed:reveal"
    assert await slack.click(reveal, HOST, channel=CHANNEL) == 200
    await slack.wait_ephemeral(HOST, "That button is not one this bot understands.")
    assert (await engine.run_in(other)).position == other_run.position
    assert not any("Results:" in block_texts(c.args["blocks"]) for c in slack.posts())


async def test_only_a_plain_run_number_is_read_as_a_run_id(slack: SlackDriver) -> None:
    for words in ("²", "4 2", "-1", "9" * 19):
        assert await slack.command(f"export {words}") == 200
    await slack.fake.wait_for(lambda _: len(slack.ephemerals(HOST, "Usage: `/lesson export")) == 4)
    assert slack.fake.calls_to("conversations.open") == []


async def test_a_host_in_another_channel_cannot_export_or_read_the_run(
    slack: SlackDriver,
) -> None:
    run_id = await answered_question(slack)
    assert await slack.command(f"export {run_id}", channel=OTHER_CHANNEL) == 200
    await slack.wait_ephemeral(
        HOST, f"Run {run_id} was held in another channel; run the export there."
    )
    assert await slack.command("results", channel=OTHER_CHANNEL) == 200
    await slack.wait_ephemeral(HOST, "No lesson is running in this channel.")
    assert slack.fake.calls_to("conversations.open") == []
    assert slack.fake.calls_to("files.completeUploadExternal") == []
    assert not any(c.args.get("channel") == OTHER_CHANNEL for c in slack.posts())


async def test_forget_me_removes_the_click_records_that_name_the_member(
    slack: SlackDriver, store: SqlRunStore
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    click = slack.click_payload(slack.button(question, RIGHT), ALICE, question, CHANNEL, "")
    del click["trigger_id"]  # keyed by user and action_ts, as Slack's clicks without one are
    assert await slack.send_payload(click) == 200
    await slack.wait_ephemeral(ALICE, "You chose")
    assert "deliveries.delivery_id" in await traces_of(store, ALICE)

    assert await slack.command("forget-me confirm", ALICE) == 200
    reply = await slack.wait_ephemeral(ALICE, "Done: removed 1 stored answer (")
    assert "1 record of clicks kept to spot repeats" in reply.args["text"]
    assert await traces_of(store, ALICE) == []


async def test_forget_me_with_another_word_explains_itself_and_deletes_nothing(
    slack: SlackDriver, store: SqlRunStore
) -> None:
    run_id = await answered_question(slack)
    assert await slack.command("forget-me now", ALICE) == 200
    reply = await slack.wait_ephemeral(ALICE, "Usage: `/lesson forget-me` to see")
    assert "`/lesson forget-me confirm` to delete it" in reply.args["text"]
    assert {r.user_id for r in await store.export_answers(run_id)} == {ALICE, BOB}


async def test_forget_me_drops_the_members_remembered_slack_language(slack: SlackDriver) -> None:
    await answered_question(slack)
    assert await slack.command("forget-me confirm", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Done: removed 1 stored answer (")
    assert slack.fake.user_lookups(locale=True).count(ALICE) == 1  # remembered until then

    assert await slack.command("forget-me", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Nothing of yours is stored here")
    assert slack.fake.user_lookups(locale=True).count(ALICE) == 2  # asked again: forgotten
