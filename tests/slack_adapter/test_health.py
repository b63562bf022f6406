"""Socket Mode's health probe: it says connected only while the socket is open.

That the health check passes while a bot serves and fails once it crashed or stopped is
tested on both platforms in `tests/platforms/test_health.py`.
"""

from __future__ import annotations

from bot.slack_adapter import SlackBot
from bot.slack_adapter.run import socket_mode_handler
from fakes.fake_slack import FakeSlack
from tests.slack_adapter.test_socket_mode import APP_TOKEN


async def test_the_socket_mode_probe_says_connected_only_while_the_socket_is_open(
    slack_bot: SlackBot, fake_slack: FakeSlack
) -> None:
    handler = socket_mode_handler(slack_bot, APP_TOKEN)
    assert not await handler.client.is_connected()
    await handler.connect_async()
    try:
        await fake_slack.wait_for(lambda _: fake_slack.calls_to("socket.connect"))
        assert await handler.client.is_connected()
    finally:
        await handler.close_async()
    assert not await handler.client.is_connected()
