"""An unreachable database: a clear refusal, one log line, and recovery when it is back."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.engine import LessonCatalog, LessonEngine
from bot.model import StoreUnavailable
from bot.verifier import Checker
from storage import SqlRunStore, open_database
from storage.migrate import upgrade_database
from tests.engine.helpers import CHANNEL, HOST


async def test_an_unreachable_database_refuses_clearly_and_recovers(
    tmp_path: Path, checker: Checker, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "not-yet"
    url = f"sqlite+aiosqlite:///{folder / 'bot.db'}"
    database = open_database(url)
    engine = LessonEngine(SqlRunStore(database), checker, LessonCatalog())
    caplog.set_level(logging.WARNING, logger="storage")
    for _ in range(3):
        with pytest.raises(StoreUnavailable, match="Please try again"):
            await engine.start(CHANNEL, HOST)
    assert [r.levelname for r in caplog.records if r.name == "storage"] == ["ERROR"]
    folder.mkdir()
    await upgrade_database(url)
    card = await engine.start(CHANNEL, HOST)
    assert card.number == 1
    assert [r.getMessage() for r in caplog.records][-1] == "database reachable again"
    await database.dispose()
