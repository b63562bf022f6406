"""A gateway connection that lets other work run between the events it delivers.

discord.py reads gateway events in a loop, and reading a message that is already buffered
does not yield to the event loop. Under a burst of clicks the events keep arriving, so the
loop would parse one INTERACTION_CREATE after another while the acknowledgements of the
clicks already parsed wait their turn, past Discord's 3-second window. Yielding once before
each read lets every click's first step (its acknowledgement) go out before the next event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

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
