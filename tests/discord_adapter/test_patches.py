"""The fair gateway reader (`bot/discord_adapter/patches.py`): what it does, and the discord.py
internals it relies on, which fail these tests when a new discord.py changes them."""

from __future__ import annotations

import asyncio
import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import aiohttp
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient
from packaging.requirements import Requirement

from bot.discord_adapter.patches import FairGatewaySocket, fair_connect
from tests.discord_adapter.conftest import Launch

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


class BufferedSocket:
    """A websocket whose messages are all buffered: receiving never waits for the network."""

    close_code = 1000

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        """The next buffered message, without yielding to the event loop."""
        return aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, self.messages.pop(0), None)


async def read_two(socket: object) -> list[str]:
    """Read a message, start work as handling it would, read the next; the order things ran."""
    order: list[str] = []
    first = await socket.receive()  # type: ignore[attr-defined]
    order.append(first.data)
    asyncio.get_running_loop().call_soon(order.append, f"ack of {first.data}")
    order.append((await socket.receive()).data)  # type: ignore[attr-defined]
    return order


async def test_work_started_by_one_event_runs_before_the_next_event_is_read() -> None:
    order = await read_two(FairGatewaySocket(BufferedSocket(["a", "b"])))
    assert order == ["a", "ack of a", "b"]


class SlowSocket:
    """A websocket whose each message arrives only after the reader waited for it."""

    close_code = 1000

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        """The next message, once the network delivered it."""
        await asyncio.sleep(0.001)
        return aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, "late", None)


async def test_each_read_says_whether_its_event_was_already_waiting() -> None:
    told: list[bool] = []
    buffered = FairGatewaySocket(BufferedSocket(["a", "b"]), told.append)
    await buffered.receive()
    await buffered.receive()
    assert told == [True, True]  # behind: each event was waiting to be read
    told.clear()
    await FairGatewaySocket(SlowSocket(), told.append).receive()  # type: ignore[arg-type]
    assert told == [False]  # caught up: the read waited for its event


async def test_a_plain_buffered_socket_would_read_on_first() -> None:
    order = await read_two(BufferedSocket(["a", "b"]))
    assert order == ["a", "b"]


async def test_the_fair_socket_is_the_same_socket_otherwise() -> None:
    async def connect(url: str, *, compress: int = 0) -> BufferedSocket:
        return BufferedSocket([f"{url} {compress}"])

    socket = await fair_connect(connect)("ws://gateway", compress=15)  # type: ignore[arg-type]
    assert isinstance(socket, FairGatewaySocket)
    assert socket.close_code == 1000
    assert (await socket.receive()).data == "ws://gateway 15"


async def test_a_connected_bot_reads_its_gateway_through_the_fair_socket(launch: Launch) -> None:
    bot = await launch()
    assert isinstance(bot.ws.socket, FairGatewaySocket)


def test_the_installed_discord_py_is_one_the_patch_was_written_for() -> None:
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    pinned = next(Requirement(d) for d in dependencies if Requirement(d).name == "discord.py")
    assert pinned.specifier.contains(version("discord.py")), pinned


def test_discord_py_opens_the_gateway_through_http_ws_connect() -> None:
    assert "client.http.ws_connect(" in inspect.getsource(DiscordWebSocket.from_client)
    assert list(inspect.signature(HTTPClient.ws_connect).parameters) == ["self", "url", "compress"]


def test_discord_py_reads_each_gateway_event_with_receive() -> None:
    assert "self.socket.receive(timeout=" in inspect.getsource(DiscordWebSocket.poll_event)
