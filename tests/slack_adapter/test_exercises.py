"""The verifier exercise and the free-answer modal, end to end through the bolt app."""

from __future__ import annotations

import json

from bot.engine import Action, parse_address
from fakes.fake_slack import block_texts
from fakes.slack_driver import ALICE, BOB, CHANNEL, SlackDriver, step_number
from tests.slack_adapter.lesson_walk import rate_every_attempt

VERIFIER_STEP = step_number("be-the-checker")
FREE_ANSWER_STEP = step_number("your-turn")


def shows_no_verdict(text: str) -> bool:
    """Whether a private reply names neither the gold answer nor a checker verdict."""
    return "20" not in text and "reward" not in text and "gold answer" not in text


async def test_the_verifier_exercise_rates_every_attempt_then_runs_the_checker(
    slack: SlackDriver,
) -> None:
    await slack.start()
    card = await slack.go_to_step(VERIFIER_STEP)
    assert await slack.click(slack.action(card, ":check:polished"), ALICE, card) == 200
    early = await slack.wait_ephemeral(ALICE, "4 attempts left to rate")
    await slack.click(slack.action(card, ":up:polished"), ALICE, card)
    rated = await slack.wait_ephemeral(ALICE, "You gave *The polished one* a 👍")
    assert "3 attempts left to rate" in rated.args["text"]
    await slack.click(slack.action(card, ":check:polished"), ALICE, card)
    still = await slack.wait_ephemeral(ALICE, "so your ratings stay blind to the checker. 3 ")
    assert all(shows_no_verdict(c.args["text"]) for c in (early, rated, still))

    await rate_every_attempt(slack, card, ALICE, "down")
    await slack.click(slack.action(card, ":check:polished"), ALICE, card)
    receipt = await slack.wait_ephemeral(ALICE, "*Checker on The polished one*")
    assert "It read *22.5*; gold answer *20* → reward *0* ❌" in receipt.args["text"]
    assert "now locked" in receipt.args["text"]
    await slack.click(slack.action(card, ":up:hedge"), ALICE, card)
    await slack.wait_ephemeral(ALICE, "your ratings are locked")

    await slack.click(slack.action(card, ":down:second-look"), BOB, card)
    await slack.click(slack.action(card, ":check:second-look"), BOB, card)
    blind = await slack.wait_ephemeral(BOB, "3 attempts left to rate")
    assert shows_no_verdict(blind.args["text"])

    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: You're the checker")
    rows = [block["fields"] for block in reveal.args["blocks"] if "fields" in block]
    assert "What the channel rated" in rows[0][0]["text"]
    polished, second_look = rows[1], rows[4]
    assert "(0 👍 · 1 👎)" in polished[0]["text"] and "reward *0* ❌" in polished[1]["text"]
    assert "(0 👍 · 2 👎)" in second_look[0]["text"] and "reward *1* ✅" in second_look[1]["text"]
    shown = block_texts(reveal.args["blocks"])
    assert "The checker rewarded only *The second look*" in shown
    assert "given before its rater saw the checker" in shown
    assert not slack.ephemerals(BOB, "gold answer")


async def test_the_free_answer_modal_grades_and_allows_retries(slack: SlackDriver) -> None:
    await slack.start()
    card = await slack.go_to_step(FREE_ANSWER_STEP)
    answer = slack.action(card, ":answer")
    assert await slack.click(answer, ALICE, card) == 200
    await slack.fake.wait_for(lambda _: slack.fake.calls_to("views.open"))
    opened = slack.fake.calls_to("views.open")[0]
    view = opened.args["view"]
    metadata = json.loads(view["private_metadata"])
    assert metadata == {"address": answer, "channel": CHANNEL}
    assert parse_address(metadata["address"]).action is Action.ANSWER
    assert opened.args["trigger_id"].startswith("trigger-")
    assert view["callback_id"] == "lesson_answer"
    assert any(block["type"] == "input" for block in view["blocks"])

    assert await slack.submit(view, "1/2", ALICE) == 200
    first = await slack.wait_ephemeral(ALICE, "Try 1:")
    assert "Reward *0* ❌" in first.args["text"]
    assert await slack.submit(view, "0.75", ALICE) == 200
    second = await slack.wait_ephemeral(ALICE, "Try 2:")
    assert "Reward *1* ✅" in second.args["text"]

    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: Your turn")
    assert "` 1 (100%) solved after trying again 🔁" in block_texts(reveal.args["blocks"])


async def test_an_empty_or_closed_answer_is_refused_privately(slack: SlackDriver) -> None:
    await slack.start()
    card = await slack.go_to_step(FREE_ANSWER_STEP)
    view = await slack.open_answer_form(card)
    await slack.submit(view, "   ", ALICE)
    await slack.wait_ephemeral(ALICE, "Type an answer of 1 to 200 characters.")
    await slack.command("reveal")
    await slack.wait_post("Results: Your turn")
    await slack.submit(view, "3/4", BOB)
    await slack.wait_ephemeral(BOB, "no longer takes answers")


async def test_answers_past_the_lessons_try_cap_are_refused_and_not_graded(
    slack: SlackDriver,
) -> None:
    await slack.start()
    card = await slack.go_to_step(FREE_ANSWER_STEP)
    view = await slack.open_answer_form(card)
    for number in range(1, 6):
        assert await slack.submit(view, str(number + 10), ALICE) == 200
        await slack.wait_ephemeral(ALICE, f"Try {number}:")
    await slack.wait_ephemeral(ALICE, "That was your last try")
    assert await slack.submit(view, "3/4", ALICE) == 200
    await slack.wait_ephemeral(ALICE, "You have used your 5 tries at this problem")
    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: Your turn")
    assert "1 answered with 5 tries in all" in block_texts(reveal.args["blocks"])
