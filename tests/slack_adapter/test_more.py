"""The More button on Slack: a step's longer detail, told only to the member who asked."""

from __future__ import annotations

from fakes.fake_slack import action_ids
from fakes.slack_driver import ALICE, BOB, SlackDriver, step_number


async def test_more_on_a_narration_answers_privately(slack: SlackDriver) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("three-stages"))
    assert await slack.click(slack.action(card, ":more"), ALICE, card) == 200
    reply = await slack.wait_ephemeral(ALICE, "SFT is supervised fine-tuning")
    assert "group relative policy optimization" in reply.args["text"]
    assert slack.ephemerals(BOB) == []


async def test_more_under_a_question_s_reveal_answers_privately(slack: SlackDriver) -> None:
    await slack.start()
    card = await slack.go_to_step(step_number("be-the-checker"))
    assert not [a for a in action_ids(card.args["blocks"]) if a.endswith(":more")]
    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: You're the checker")
    assert await slack.click(slack.action(reveal, ":more"), BOB, reveal) == 200
    reply = await slack.wait_ephemeral(BOB, "*The thorough one* slipped")
    assert "takes 1 hour" in reply.args["text"]
