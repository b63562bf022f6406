"""Running a lesson through the real bolt app: hosts, members, reveals, counters, timers."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Action, LessonEngine, parse_address
from bot.model import NoActiveRun, Phase, Place
from bot.process.upkeep import fire_once
from bot.slack_adapter import SlackBot
from fakes.fake_slack import TEAM_ID, block_texts, buttons
from fakes.slack_driver import (
    ALICE,
    BOB,
    CHANNEL,
    HOST,
    LISTED_HOST,
    TOTAL,
    SlackDriver,
    eventually,
    message_ts,
)
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.waiting import wait_until

PLACE = Place("slack", TEAM_ID, CHANNEL)
RIGHT = "A new training stage that rewards answers a program can check"
BIGGER = "A bigger model, or a new kind of model"


async def test_a_host_starts_a_run(slack: SlackDriver, engine: LessonEngine) -> None:
    message = await slack.start()
    blocks = message.args["blocks"]
    assert blocks[0] == {
        "type": "header",
        "text": {
            "type": "plain_text",
            "text": f"Step 1/{TOTAL} · What this lesson is about",
            "emoji": True,
        },
    }
    assert "*mediocre to expert*" in block_texts(blocks)
    next_button = parse_address(buttons(blocks)["Next"])
    run = await engine.run_in(PLACE)
    assert (next_button.run_id, next_button.action) == (run.id, Action.NEXT)

    async def message_remembered() -> bool:
        return await engine.step_message(run.id, "intro") == message_ts(message)

    await eventually(message_remembered)
    assert slack.fake.user_lookups(locale=False) == [HOST]


async def test_members_answer_one_changes_and_the_reveal_counts_right(
    slack: SlackDriver,
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, BIGGER), ALICE, question)
    await slack.wait_ephemeral(ALICE, "You chose *A bigger model")
    await slack.click(slack.button(question, RIGHT), BOB, question)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    await slack.wait_ephemeral(ALICE, "Changed your answer to *A new training stage")
    await slack.wait_ephemeral(BOB, "You chose *A new training stage")

    await slack.click(slack.button(question, "Reveal"), HOST, question)
    reveal = await slack.wait_post("Results: Same brain, a year later")
    text = block_texts(reveal.args["blocks"])
    assert f"` 2 (100%) {RIGHT} ✅" in text
    assert f"` 0 (0%) {BIGGER}" in text
    assert "2 of 2 (100%) chose the right answer." in text
    assert "Next" in buttons(reveal.args["blocks"])
    closed = slack.fake.messages[message_ts(question)]
    assert not buttons(closed["blocks"])
    assert "🔒 Answers closed · 2 answered" in block_texts(closed["blocks"])
    assert slack.fake.user_lookups(locale=False) == [HOST]


async def test_the_reveal_uploads_its_chart_with_the_files_v2_flow(slack: SlackDriver) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    assert await slack.command("reveal") == 200
    await slack.fake.wait_for(lambda _: slack.fake.calls_to("files.completeUploadExternal"))
    url_call = slack.fake.calls_to("files.getUploadURLExternal")[0]
    assert url_call.args["filename"].endswith(".png")
    completed = slack.fake.calls_to("files.completeUploadExternal")[0]
    assert completed.args["channel_id"] == CHANNEL
    upload = slack.fake.calls_to("upload")[0]
    assert upload.body.startswith(b"\x89PNG")
    assert int(url_call.args["length"]) == len(upload.body)


async def test_a_non_host_is_refused_and_nothing_changes(
    slack: SlackDriver, engine: LessonEngine
) -> None:
    assert await slack.command("start", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Only a lesson host can start a lesson.")
    with pytest.raises(NoActiveRun):
        await engine.run_in(PLACE)

    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, "Reveal"), BOB, question)
    await slack.wait_ephemeral(BOB, "Only a lesson host can reveal the answers.")
    assert await slack.command("next", BOB) == 200
    await slack.wait_ephemeral(BOB, "Only a lesson host can move the lesson on.")
    run = await engine.run_in(PLACE)
    assert (run.step_index, run.position.phase) == (1, Phase.OPEN)
    assert not any("Results:" in block_texts(c.args["blocks"]) for c in slack.posts())


async def test_a_channel_without_the_bot_is_told_how_to_invite_it(
    slack: SlackDriver, engine: LessonEngine
) -> None:
    slack.fake.fail_next("chat.postMessage", status=200, error="not_in_channel")
    slack.fake.fail_next("chat.postEphemeral", status=200, error="not_in_channel")
    assert await slack.command("start") == 200
    await slack.fake.wait_for(lambda _: slack.fake.calls_to("respond"))
    reply = slack.fake.calls_to("respond")[0].args
    assert reply["response_type"] == "ephemeral" and "`/invite @Lesson Bot`" in reply["text"]
    with pytest.raises(NoActiveRun):
        await engine.run_in(PLACE)


async def test_a_user_in_slack_host_users_is_a_host(slack: SlackDriver) -> None:
    await slack.start(user=LISTED_HOST)
    assert slack.fake.user_lookups(locale=False) == []


async def test_the_live_counter_is_throttled_and_ends_on_the_last_count(
    slack: SlackDriver, slack_bot: SlackBot
) -> None:
    slack_bot.presenter.counters.interval = 1.0
    await slack.start()
    question = await slack.go_to_step(2)
    ts = message_ts(question)
    voters = [f"UVOTER{n}" for n in range(6)]
    for voter in voters:
        assert await slack.click(slack.button(question, RIGHT), voter, question) == 200

    def counter_shows_six(_: object) -> bool:
        return "6 answered" in block_texts(slack.fake.messages[ts]["blocks"])

    await slack.fake.wait_for(counter_shows_six, timeout=5)
    updates = [c for c in slack.fake.calls_to("chat.update") if c.args["ts"] == ts]
    assert 1 <= len(updates) <= 3
    assert buttons(slack.fake.messages[ts]["blocks"])


async def test_a_timer_moves_the_lesson_on_and_the_adapter_posts_it(
    slack: SlackDriver, slack_bot: SlackBot, engine: LessonEngine, clock: FakeClock
) -> None:
    first = await slack.start("rlvr 30s")
    run_id = parse_address(slack.button(first, "Next")).run_id

    async def step_message_saved() -> bool:
        return await engine.step_message(run_id, "intro") is not None

    await wait_until(step_message_saved, what="the first step's message to be remembered")
    clock.advance(31)
    assert await fire_once(slack_bot.requests.service.fire_timers) == 1
    await slack.wait_post(f"Step 2/{TOTAL} · Same brain")
    clock.advance(31)
    assert await fire_once(slack_bot.requests.service.fire_timers) == 1
    results = await slack.wait_post("Results: Same brain, a year later")
    assert not buttons(slack.fake.messages[message_ts(first)]["blocks"])
    assert "Next" in buttons(slack.fake.messages[message_ts(results)]["blocks"])


async def test_a_timed_advance_takes_the_next_button_off_the_earlier_results(
    slack: SlackDriver, slack_bot: SlackBot, engine: LessonEngine, clock: FakeClock
) -> None:
    await slack.start("rlvr 30s")
    for _ in range(2):
        clock.advance(31)
        assert await fire_once(slack_bot.requests.service.fire_timers) == 1
    results = await slack.wait_post("Results: Same brain, a year later")
    run_id = parse_address(slack.button(results, "Next")).run_id

    async def results_message_saved() -> bool:
        return await engine.reveal_message(run_id, "what-changed") is not None

    await wait_until(results_message_saved, what="the results' message to be remembered")
    clock.advance(31)
    assert await fire_once(slack_bot.requests.service.fire_timers) == 1
    await slack.wait_post(f"Step 3/{TOTAL}")
    shown = slack.fake.messages[message_ts(results)]
    assert "Next" not in buttons(shown["blocks"])
    assert "Results: Same brain, a year later" in block_texts(shown["blocks"])


async def test_stop_after_a_reveal_takes_the_next_button_off_the_results(
    slack: SlackDriver,
) -> None:
    await slack.start()
    await slack.go_to_step(2)
    posted = len(slack.posts())
    assert await slack.command("reveal") == 200
    results = await slack.wait_post("Results: Same brain", after=posted)
    assert "Next" in buttons(slack.fake.messages[message_ts(results)]["blocks"])
    assert await slack.command("stop") == 200
    await slack.wait_post("Stopped early")
    shown = slack.fake.messages[message_ts(results)]
    assert "Next" not in buttons(shown["blocks"])
    assert "Results: Same brain, a year later" in block_texts(shown["blocks"])


async def test_stop_closes_the_step_and_posts_the_results(
    slack: SlackDriver, engine: LessonEngine
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    await slack.click(slack.button(question, RIGHT), ALICE, question)
    assert await slack.command("results", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Results: RLVR")
    assert await slack.command("stop") == 200
    summary = await slack.wait_post("Stopped early")
    assert "members took part" in block_texts(summary.args["blocks"])
    await slack.fake.wait_for(
        lambda _: not buttons(slack.fake.messages[message_ts(question)]["blocks"])
    )
    with pytest.raises(NoActiveRun):
        await engine.run_in(PLACE)


async def test_help_and_unknown_verbs_explain_the_command(slack: SlackDriver) -> None:
    assert await slack.command("", ALICE) == 200
    help_message = await slack.wait_ephemeral(ALICE, "/lesson start [lesson] [timer]")
    assert "Lessons: rlvr" in help_message.args["text"]
    assert "/lesson repost" in help_message.args["text"]
    assert "SLACK_HOST_USERS" in help_message.args["text"]
    assert await slack.command("start rlvr 5 6") == 200
    await slack.wait_ephemeral(HOST, "Usage: `/lesson start")


async def test_a_repost_takes_the_buttons_off_the_older_copy_and_the_new_one_counts(
    slack: SlackDriver, engine: LessonEngine, store: SqlRunStore
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    posted = len(slack.posts())
    assert await slack.command("repost") == 200
    again = await slack.wait_post(f"Step 2/{TOTAL} · Same brain", after=posted)
    assert message_ts(again) != message_ts(question)

    def older() -> list[dict[str, Any]]:
        return list(slack.fake.messages[message_ts(question)]["blocks"])

    await slack.fake.wait_for(lambda _: "Posted again below" in block_texts(older()))
    assert not [label for label in buttons(older()) if RIGHT in label or BIGGER in label]
    await slack.click(slack.button(again, RIGHT), ALICE, again)
    await slack.wait_ephemeral(ALICE, "You chose")
    run = await engine.run_in(PLACE)
    counts = {v.value: v.count for v in await store.vote_counts(run.id, "what-changed")}
    assert counts == {"checkable-reward": 1}
    await slack.fake.wait_for(
        lambda _: "1 answered" in block_texts(slack.fake.messages[message_ts(again)]["blocks"])
    )
    assert "Posted again below" in block_texts(older())


async def test_a_members_repost_is_refused_privately_and_nothing_is_posted(
    slack: SlackDriver,
) -> None:
    await slack.start()
    await slack.go_to_step(2)
    posted = len(slack.posts())
    assert await slack.command("repost", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "Only a lesson host can post the step again.")
    assert len(slack.posts()) == posted
    assert slack.ephemerals(HOST) == []
