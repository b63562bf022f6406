"""The database going away: members and hosts get a private "try again", nothing half-done
happens, and the bot works again as soon as the database is back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_adapter import BotOptions
from bot.model import StoreUnavailable
from fakes.fake_discord import RESPONSE_WINDOW, FakeDiscord
from storage import SqlRunStore
from tests.discord_adapter.conftest import Launch, MakeEngine
from tests.discord_adapter.helpers import LessonDriver, button, run_of
from tests.discord_adapter.outage import DatabaseGate, gate_for

TRY_AGAIN = str(StoreUnavailable())
STEP = "what-changed"


@pytest.fixture
async def gate(database_url: str, tmp_path: Path) -> AsyncIterator[DatabaseGate]:
    """An open way to the test's database that the test can shut."""
    opened = await gate_for(database_url, tmp_path)
    yield opened
    await opened.close()


async def test_clicks_while_the_database_is_down_are_refused_and_the_bot_recovers(
    fake: FakeDiscord, launch: Launch, engines: MakeEngine, gate: DatabaseGate, store: SqlRunStore
) -> None:
    engine = engines(gate.url)
    await launch(on=engine, options=BotOptions(counter_interval=0.2, timer_interval=1.0))
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach(STEP)
    choice = button(question, arg="checkable-reward")
    ann = fake.member("ann")

    assert isinstance(engine.store, SqlRunStore)
    await gate.shut(engine.store.database)
    clicked = await fake.click(ann, question, choice)
    refused = await fake.private_reply(clicked)
    assert refused.ephemeral and refused.content == TRY_AGAIN
    delay = fake.ack_delay(clicked)
    assert delay is not None and delay < RESPONSE_WINDOW
    not_moved = await lesson.command("next")
    assert not_moved.ephemeral and not_moved.content == TRY_AGAIN

    await gate.open()
    recorded = await lesson.press(ann, question, choice)
    assert recorded.ephemeral and "You chose" in recorded.content
    votes = await store.vote_counts(run_of(question), STEP)
    assert [(v.value, v.count) for v in votes] == [("checkable-reward", 1)]
    moved = await lesson.command("next")
    assert moved.content == "Moved on."
