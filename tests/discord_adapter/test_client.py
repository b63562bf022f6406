"""The client: one bounded pool of keep-alive REST connections; burst handling by its switch."""

from __future__ import annotations

from dataclasses import replace

import aiohttp

from bot.discord_adapter import build_bot
from bot.engine import LessonEngine
from bot.process.runtime import Runtime
from bot.settings import Settings
from bot.verifier import Checker
from storage import SqlRunStore
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import FAST


async def test_rest_requests_go_through_a_pool_of_the_configured_size(launch: Launch) -> None:
    bot = await launch(options=replace(FAST, connections=7))
    connector = bot.http.connector
    assert isinstance(connector, aiohttp.TCPConnector)
    assert connector.limit == 7 and not connector.closed


async def test_burst_handling_follows_its_one_switch(
    settings: Settings, engine: LessonEngine, checker: Checker
) -> None:
    store = engine.store
    assert isinstance(store, SqlRunStore)
    runtime = Runtime(engine, store, checker, store.database)
    for on in (True, False):
        bot = build_bot(settings.model_copy(update={"burst_handling": on}), runtime, FAST)
        assert bot.replies.acks.enabled is on
        await bot.close()
