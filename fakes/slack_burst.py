"""Firing many signed clicks at once, timing each from the moment its request went out."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import aiohttp

from fakes.slack_driver import SlackDriver


@dataclass(frozen=True)
class Acked:
    """One request's HTTP status and how long its answer took once it was sent."""

    status: int
    seconds: float


def send_timer() -> aiohttp.TraceConfig:
    """Notes when each request's headers went out (after waiting for a free connection)."""
    trace = aiohttp.TraceConfig()

    async def sent(_: aiohttp.ClientSession, context: SimpleNamespace, __: Any) -> None:
        context.trace_request_ctx["sent"] = time.monotonic()

    trace.on_request_headers_sent.append(sent)
    return trace


async def timed_post(
    session: aiohttp.ClientSession, url: str, body: bytes, headers: dict[str, str]
) -> Acked:
    """POST and time it from the moment it was sent to the end of the answer."""
    context: dict[str, float] = {}
    async with session.post(url, data=body, headers=headers, trace_request_ctx=context) as response:
        await response.read()
    return Acked(response.status, time.monotonic() - context["sent"])


def burst_session(connections: int) -> aiohttp.ClientSession:
    """A client session with at most `connections` open at once, timing every request."""
    connector = aiohttp.TCPConnector(limit=connections)
    return aiohttp.ClientSession(connector=connector, trace_configs=[send_timer()])


async def fire(slack: SlackDriver, clicks: list[tuple[str, str]], connections: int) -> list[Acked]:
    """Send every (action_id, user) click at once through `connections` connections."""
    async with burst_session(connections) as session:
        requests = [slack.signed_click(action_id, user) for action_id, user in clicks]
        return await asyncio.gather(
            *(timed_post(session, slack.url, body, headers) for body, headers in requests)
        )
