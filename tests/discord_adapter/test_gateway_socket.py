"""Gateway events already buffered do not starve the work they start (their acknowledgements)."""

from __future__ import annotations

import asyncio

import aiohttp

from bot.discord_adapter.gateway_socket import FairGatewaySocket, fair_connect


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
