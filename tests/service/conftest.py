"""Fixtures of the service tests: one bot process on the test's engine, and a second one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.verifier import Checker
from storage import SqlRunStore, open_database
from tests.conftest import FakeClock
from tests.service.test_assignments import Bot, bot_on


@pytest.fixture
async def bot(engine: LessonEngine) -> AsyncIterator[Bot]:
    """The service on the test's engine, posting to a recording channel; afterwards its
    presenter stops retrying lost posts, which would otherwise go on into the next test."""
    made = bot_on(engine)
    yield made
    await made.service.presenter.flush()


@pytest.fixture
async def other_bot(
    database_url: str, checker: Checker, clock: FakeClock
) -> AsyncIterator[Bot]:
    """A second process on the same database."""
    database = open_database(database_url)
    made = bot_on(LessonEngine(SqlRunStore(database), checker, LessonCatalog(), clock))
    yield made
    await made.service.presenter.flush()
    await database.dispose()
