"""Secrets stay out of the logs, through a whole lesson at the most detailed log level."""

from __future__ import annotations

import logging

import pytest

from bot.engine import LessonCatalog
from bot.process.log_redaction import configure_logging
from fakes.fake_discord import APP_ID, TOKEN, FakeDiscord, SentInteraction
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, button, logged, walk_lesson


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
    assert f"client_id={APP_ID}" in caplog.text and "permissions=309237763072" in caplog.text


async def a_click_logged_at_debug(
    fake: FakeDiscord, launch: Launch, library_debug: bool
) -> SentInteraction:
    """Logging set up as `python -m bot discord` does at LOG_LEVEL=DEBUG; one answered click."""
    configure_logging("DEBUG", [TOKEN], library_debug)
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    message = await lesson.reach("what-changed")
    sent = await fake.click(fake.member("ann"), message, button(message, action="choose"))
    await fake.private_reply(sent)
    return sent


async def test_a_debug_line_carrying_an_interaction_url_is_redacted(
    fake: FakeDiscord,
    launch: Launch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent = await a_click_logged_at_debug(fake, launch, library_debug=True)
    await logged(caplog, f"/interactions/{sent.id}/[redacted]/callback")
    assert any("'token': '[redacted]'" in record.getMessage() for record in caplog.records)
    assert sent.token not in caplog.text
    assert all(sent.token not in record.getMessage() for record in caplog.records)
    assert TOKEN not in caplog.text


async def test_library_debug_lines_stay_off_unless_asked_for(
    fake: FakeDiscord,
    launch: Launch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await a_click_logged_at_debug(fake, launch, library_debug=False)
    library = [r for r in caplog.records if r.name.startswith("discord")]
    assert library and all(record.levelno >= logging.INFO for record in library)
    assert logging.getLogger("bot").isEnabledFor(logging.DEBUG)
