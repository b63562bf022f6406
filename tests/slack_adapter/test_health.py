"""A container's health check beside the Slack bot: its heartbeat follows the connection."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.process.upkeep import health_report
from bot.slack_adapter import SlackBot
from bot.slack_adapter.run import socket_mode_handler
from fakes.fake_slack import FakeSlack
from fakes.slack_processes import bot_processes
from tests.health import INTERVAL, assert_healthy_once_beating, health_check, heartbeat_settings
from tests.slack_adapter.test_socket_mode import APP_TOKEN
from tests.waiting import wait_until


async def test_an_http_bot_is_healthy_while_it_serves_and_not_after_a_crash(
    fake_slack: FakeSlack, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health_file = heartbeat_settings(tmp_path, monkeypatch)
    async with bot_processes(1, fake_slack, database_url, tmp_path) as running:
        bot, _ = running[0]
        await assert_healthy_once_beating(health_file)
        await bot.kill_hard()

    async def stale() -> bool:
        return not health_report(health_file, INTERVAL)[0]

    await wait_until(stale, 30, "three missed heartbeats")
    status, line = await health_check(health_file)
    assert status == 1 and "no heartbeat" in line, line


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
