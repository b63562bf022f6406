"""Posting what lesson timers did: timed reveals and moves, found by stored message refs."""

from __future__ import annotations

import asyncio

from bot.discord_adapter.context import AdapterContext
from bot.discord_adapter.hosts import PLATFORM
from bot.engine import TimerFired
from bot.timers import run_timer_loop

DEFAULT_INTERVAL = 1.0


class TimerPoster:
    """Shows timer events of Discord runs in their channels."""

    def __init__(self, context: AdapterContext) -> None:
        self.context = context

    async def on_fired(self, event: TimerFired) -> None:
        """Post a timed reveal, or the next step (closing the one left)."""
        channel_id = int(event.run.place.channel)
        publisher = self.context.publisher
        if event.reveal is not None:
            await publisher.show_reveal(channel_id, *event.reveal)
        if event.advance is not None:
            await publisher.show_advance(channel_id, event.advance)


def start_timer_loop(
    context: AdapterContext, interval: float = DEFAULT_INTERVAL
) -> asyncio.Task[None]:
    """Run the engine's timer loop in the background, posting what fires."""
    poster = TimerPoster(context)
    return asyncio.get_running_loop().create_task(
        run_timer_loop(context.engine, poster.on_fired, interval, PLATFORM), name="lesson-timers"
    )
