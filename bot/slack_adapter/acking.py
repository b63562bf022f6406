"""Record first, then acknowledge, within a budget; show the outcome after the ack.

Slack wants every request acknowledged within 3 seconds. A handler first decides: it claims
the delivery and calls the engine, which stores the answer. The ack goes out as soon as that
is done, so an acknowledged answer is already in the database if the process dies right
after. If deciding takes longer than `ACK_BUDGET` (a slow database or Web API), the ack goes
out anyway and the decision finishes afterwards. What the member sees (private replies,
posts, edits) is sent after the ack, because those calls may wait on Slack's rate limits.

The app answers a request when its listener returns (bolt's `process_before_response`), so
a listener returns right after its ack and leaves the showing to a background task. bolt's
other mode would poll every 10 ms per request for the ack, which under a burst of two
thousand requests is most of what the process does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

ACK_BUDGET = 1.5

Show = Callable[[], Awaitable[None]]
Ack = Callable[[], Awaitable[object]]
"""What acknowledges a request: bolt's `ack`, or the events route's own."""


async def show_nothing() -> None:
    """The outcome of a request that needs no reply (a repeated delivery)."""


async def ack_after(
    ack: Ack, decision: Awaitable[Show], budget: float = ACK_BUDGET
) -> asyncio.Future[Show]:
    """Ack once `decision` is done or `budget` seconds passed; the decision, still going if late."""
    decided = asyncio.ensure_future(decision)
    await asyncio.wait({decided}, timeout=budget)
    await ack()
    return decided


async def show_when_decided(decided: Awaitable[Show]) -> None:
    """Finish deciding (when the ack had to go out first), then show what came of it."""
    show = await decided
    await show()
