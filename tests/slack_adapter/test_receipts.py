"""Private replies go to each request's response_url; chat.postEphemeral only without one."""

from __future__ import annotations

import pytest

from fakes.fake_slack import RESPOND
from fakes.slack_driver import ALICE, HOST, SlackDriver
from tests.slack_adapter.test_exercises import FREE_ANSWER_STEP

RIGHT = ":choose:checkable-reward"


async def test_a_clicks_receipt_goes_to_the_response_url_of_that_click(slack: SlackDriver) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    choice = slack.action(question, RIGHT)
    assert await slack.click(choice, ALICE, question, trigger_id="t-42") == 200
    receipt = await slack.wait_ephemeral(ALICE, "You chose")
    assert (receipt.method, receipt.args["hook"]) == (RESPOND, "t-42")
    assert receipt.args["response_type"] == "ephemeral"
    assert receipt.args["replace_original"] is False
    assert slack.fake.calls_to("chat.postEphemeral") == []


async def test_a_commands_reply_goes_to_the_commands_response_url(slack: SlackDriver) -> None:
    assert await slack.command("results", ALICE, trigger_id="t-43") == 200
    reply = await slack.wait_ephemeral(ALICE, "No lesson")
    assert (reply.method, reply.args["user"], reply.args["hook"]) == (RESPOND, ALICE, "t-43")
    assert slack.fake.calls_to("chat.postEphemeral") == []


async def test_an_answer_forms_receipt_has_no_response_url_and_uses_chat_post_ephemeral(
    slack: SlackDriver,
) -> None:
    await slack.start()
    card = await slack.go_to_step(FREE_ANSWER_STEP)
    view = await slack.open_answer_form(card)
    assert await slack.submit(view, "3/4", ALICE) == 200
    receipt = await slack.wait_ephemeral(ALICE, "Try 1:")
    assert receipt.method == "chat.postEphemeral" and receipt.args["user"] == ALICE


async def test_a_response_url_slack_refuses_falls_back_to_chat_post_ephemeral(
    slack: SlackDriver, caplog: pytest.LogCaptureFixture
) -> None:
    await slack.start()
    question = await slack.go_to_step(2)
    slack.fake.fail_next(RESPOND, status=404, error="expired_url")
    assert await slack.click(slack.action(question, RIGHT), ALICE, question) == 200
    receipt = await slack.wait_ephemeral(ALICE, "You chose")
    assert receipt.method == "chat.postEphemeral"
    assert [c.status for c in slack.fake.calls_to(RESPOND, ok_only=False)] == [404]
    assert slack.ephemerals(HOST, "You chose") == []
    assert "reply to response_url failed: HTTP 404" in caplog.text
