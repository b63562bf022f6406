"""Socket Mode: the same app, reached over a WebSocket instead of HTTP."""

from __future__ import annotations

from bot.slack_adapter import SlackBot
from bot.slack_adapter.run import socket_mode_handler
from fakes.fake_slack import TEAM_ID, FakeSlack, block_texts
from fakes.slack_driver import CHANNEL, HOST, TOTAL

APP_TOKEN = "xapp-1-A0001-0000-testappsecret"


def slash_command_envelope(text: str) -> dict[str, object]:
    """A `/lesson` command as Socket Mode delivers it."""
    payload = {
        "team_id": TEAM_ID,
        "channel_id": CHANNEL,
        "user_id": HOST,
        "user_name": "host",
        "command": "/lesson",
        "text": text,
        "trigger_id": "socket-trigger-1",
        "response_url": "https://hooks.slack.test/commands/1",
    }
    return {
        "envelope_id": "envelope-1",
        "type": "slash_commands",
        "accepts_response_payload": True,
        "payload": payload,
    }


async def test_socket_mode_acks_the_command_then_starts_the_lesson(
    slack_bot: SlackBot, fake_slack: FakeSlack
) -> None:
    handler = socket_mode_handler(slack_bot, APP_TOKEN)
    await handler.connect_async()
    try:
        await fake_slack.wait_for(lambda _: fake_slack.calls_to("socket.connect"))
        await fake_slack.push_envelope(slash_command_envelope("start"))
        acks = await fake_slack.wait_for(lambda _: fake_slack.calls_to("socket.ack"))
        assert [c.args["envelope_id"] for c in acks if c.method == "socket.ack"] == ["envelope-1"]

        def first_step_posted(_: object) -> bool:
            posts = fake_slack.calls_to("chat.postMessage")
            return any(f"Step 1/{TOTAL}" in block_texts(c.args["blocks"]) for c in posts)

        await fake_slack.wait_for(first_step_posted)
    finally:
        await handler.close_async()
    assert fake_slack.calls_to("apps.connections.open")[0].token == APP_TOKEN
