"""Secrets stay out of the logs, through a whole lesson at the most detailed log level."""

from __future__ import annotations

import logging

import pytest

from bot.engine import LessonCatalog
from fakes.fake_discord import APP_ID, TOKEN, FakeDiscord
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, walk_lesson


async def test_the_token_never_reaches_the_logs_in_a_whole_lesson(
    fake: FakeDiscord, launch: Launch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    steps = await walk_lesson(lesson, [fake.member("ann"), fake.member("ben")])

    assert steps == [step.id for step in LessonCatalog().get().steps], steps
    summary = lesson.messages()[-1]
    assert summary["embeds"][0]["title"].startswith("Results")
    loggers = {record.name.split(".")[0] for record in caplog.records}
    assert {"discord", "bot"} <= loggers, loggers
    assert any(record.levelno == logging.DEBUG for record in caplog.records)
    assert TOKEN not in caplog.text
    assert all(TOKEN not in str(record.args) for record in caplog.records)
    assert f"client_id={APP_ID}" in caplog.text and "permissions=274878024704" in caplog.text
