"""Secrets never reach the logs, at DEBUG on every logger, through a whole lesson."""

from __future__ import annotations

import logging

import pytest

from bot.engine import LessonEngine
from bot.slack_adapter import SlackBot
from bot.slack_adapter.run import socket_mode_handler
from bot.verifier import Checker
from fakes.fake_slack import FakeSlack
from fakes.slack_driver import BOT_TOKEN, SIGNING_SECRET
from tests.slack_adapter.conftest import bot_for, serving
from tests.slack_adapter.lesson_walk import walk_whole_lesson
from tests.slack_adapter.test_socket_mode import APP_TOKEN, slash_command_envelope


async def test_a_whole_lesson_logs_no_token_and_no_signing_secret(
    engine: LessonEngine,
    checker: Checker,
    fake_slack: FakeSlack,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)  # before the app exists, so bolt's loggers follow it
    bot = bot_for(engine, checker, fake_slack)
    async with serving(bot, fake_slack) as slack:
        await walk_whole_lesson(slack)
        await socket_mode_round_trip(bot, fake_slack)
    logged = caplog.text + "\n".join(str(r.__dict__) for r in caplog.records)
    loggers = {record.name.split(".")[0].split(":")[0] for record in caplog.records}
    assert {"slack_sdk", "slack_bolt", "aiohttp"} <= loggers  # the SDK, bolt, the HTTP server
    assert "Sending a request" in logged  # the Web API client logged every call it made
    for secret in (BOT_TOKEN, APP_TOKEN, SIGNING_SECRET):
        assert secret not in logged
    assert all(c.token == BOT_TOKEN for c in fake_slack.calls if c.method.startswith("chat."))
    assert fake_slack.calls_to("apps.connections.open")[0].token == APP_TOKEN


async def socket_mode_round_trip(bot: SlackBot, fake: FakeSlack) -> None:
    """Connect over Socket Mode with the app token and get one command acknowledged."""
    handler = socket_mode_handler(bot, APP_TOKEN)
    await handler.connect_async()  # type: ignore[no-untyped-call]
    try:
        await fake.wait_for(lambda _: fake.calls_to("socket.connect"))
        await fake.push_envelope(slash_command_envelope("help"))
        await fake.wait_for(lambda _: fake.calls_to("socket.ack"))
    finally:
        await handler.close_async()  # type: ignore[no-untyped-call]
