"""The client's REST requests share one bounded pool of keep-alive connections."""

from __future__ import annotations

from dataclasses import replace

import aiohttp

from tests.discord_adapter.conftest import FAST, Launch


async def test_rest_requests_go_through_a_pool_of_the_configured_size(launch: Launch) -> None:
    bot = await launch(options=replace(FAST, connections=7))
    connector = bot.http.connector
    assert isinstance(connector, aiohttp.TCPConnector)
    assert connector.limit == 7 and not connector.closed
