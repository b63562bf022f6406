"""Where the bot reaches Discord: the public API by default, or DISCORD_API_URL.

discord.py keeps its REST base and default gateway as class attributes, so a custom
API is set for the whole process. The gateway is then asked of that API
(`GET /gateway/bot`), the way a sharded client finds it.
"""

from __future__ import annotations

import logging

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

log = logging.getLogger(__name__)


def use_api(api_url: str | None) -> None:
    """Send REST requests to `api_url` (e.g. `http://127.0.0.1:8080/api/v10`) when given."""
    if api_url:
        Route.BASE = api_url.rstrip("/")
        log.info("using the Discord API at %s", Route.BASE)


async def use_gateway_of_api(client: discord.Client, api_url: str | None) -> None:
    """Connect to the gateway that a custom API names; the default gateway otherwise."""
    if not api_url:
        return
    _, url, _ = await client.http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    log.info("using the Discord gateway at %s", url)
