"""Record first, then acknowledge, within a budget; show the outcome after the ack.

Slack wants every request acknowledged within 3 seconds. A handler first decides: it claims
the delivery and calls the engine, which stores the answer. The ack goes out as soon as that
is done, so an acknowledged answer is already in the database if the process dies right
after. If deciding takes longer than `ACK_BUDGET` (a slow database or Web API), the ack goes
out anyway and the decision finishes afterwards. What the member sees (private replies,
posts, edits) is sent after the ack, because those calls may wait on Slack's rate limits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from slack_bolt.async_app import AsyncAck

ACK_BUDGET = 1.5

Show = Callable[[], Awaitable[None]]


async def show_nothing() -> None:
    """The outcome of a request that needs no reply (a repeated delivery)."""


async def ack_after(ack: AsyncAck, decision: Awaitable[Show], budget: float = ACK_BUDGET) -> Show:
    """Ack once `decision` is done or `budget` seconds passed; then wait for the decision."""
    task = asyncio.ensure_future(decision)
    await asyncio.wait({task}, timeout=budget)
    await ack()
    return await task


async def decide_then_show(
    ack: AsyncAck, decision: Awaitable[Show], budget: float = ACK_BUDGET
) -> None:
    """Decide (store), ack, then show what came of it."""
    show = await ack_after(ack, decision, budget)
    await show()
