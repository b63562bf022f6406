"""The one change the bot makes to discord.py from outside: gateway reads that yield.

discord.py reads gateway events in a loop (`DiscordWebSocket.poll_event`), and reading a
message that is already buffered does not yield to the event loop. Under a burst of clicks the
events keep arriving, so the loop would parse one INTERACTION_CREATE after another while the
acknowledgements of the clicks already parsed wait their turn, past the 500 ms the burst
benchmark allows when the machine is busy. Yielding once before each read lets every click's
first step (its acknowledgement) go out before the next event is parsed.

discord.py offers no option for this: the gateway socket comes from `HTTPClient.ws_connect`,
which is wrapped here. Written for the discord.py versions pinned in pyproject.toml;
`tests/discord_adapter/test_patches.py` fails when the internals it relies on change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

Connect = Callable[..., Awaitable[aiohttp.ClientWebSocketResponse]]


class FairGatewaySocket:
    """The gateway websocket, yielding to the event loop before each message it reads."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        """The next message, after everything already scheduled has had a turn."""
        await asyncio.sleep(0)
        return await self.socket.receive(timeout=timeout)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.socket, name)


def fair_connect(connect: Connect) -> Connect:
    """`HTTPClient.ws_connect` whose connections yield between gateway messages."""

    async def connect_fairly(*args: Any, **kwargs: Any) -> Any:
        return FairGatewaySocket(await connect(*args, **kwargs))

    return connect_fairly


def read_gateway_fairly(client: discord.Client) -> None:
    """Make the gateway connections `client` opens from now on yield before each read."""
    client.http.ws_connect = fair_connect(client.http.ws_connect)  # type: ignore[method-assign, assignment]
