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


Reading = Callable[[bool], None]
"""Told after each read whether the message was already waiting (the bot is behind)."""


def _ignore(_behind: bool) -> None:
    """A reader nobody listens to."""


class FairGatewaySocket:
    """The gateway websocket, yielding to the event loop before each message it reads.

    It also tells `reading` whether each read found its message already waiting (the bot is
    behind the gateway) or had to wait for one (caught up), so work can let reading go first.
    """

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, reading: Reading = _ignore) -> None:
        self.socket = socket
        self.reading = reading

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        """The next message, after everything already scheduled has had a turn."""
        await asyncio.sleep(0)
        waited = CaughtUp(self.reading)
        # Runs only if the read below suspends: then nothing was waiting, the bot caught up.
        marker = asyncio.get_running_loop().call_soon(waited)
        message = await self.socket.receive(timeout=timeout)
        if not waited.ran:
            marker.cancel()
            self.reading(True)
        return message

    def __getattr__(self, name: str) -> Any:
        return getattr(self.socket, name)


class CaughtUp:
    """A callback telling `reading` the bot caught up; remembers whether it ran."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.ran = False

    def __call__(self) -> None:
        """The read waited: the bot caught up."""
        self.ran = True
        self.reading(False)


def fair_connect(connect: Connect, reading: Reading = _ignore) -> Connect:
    """`HTTPClient.ws_connect` whose connections yield between gateway messages."""

    async def connect_fairly(*args: Any, **kwargs: Any) -> Any:
        return FairGatewaySocket(await connect(*args, **kwargs), reading)

    return connect_fairly


def read_gateway_fairly(client: discord.Client, reading: Reading = _ignore) -> None:
    """Make the gateway connections `client` opens from now on yield before each read."""
    fair = fair_connect(client.http.ws_connect, reading)
    client.http.ws_connect = fair  # type: ignore[method-assign, assignment]
