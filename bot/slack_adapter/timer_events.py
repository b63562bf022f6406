"""Posting what the engine's timer loop did to a Slack run."""

from __future__ import annotations

from bot.engine import LessonEngine, TimerFired
from bot.slack_adapter.presenter import Presenter


class TimerEvents:
    """Shows timed reveals and moves in the run's channel."""

    def __init__(self, engine: LessonEngine, presenter: Presenter) -> None:
        self.engine = engine
        self.presenter = presenter

    async def show(self, event: TimerFired) -> None:
        """Post a timed reveal and/or the next step; step messages are found by the engine."""
        channel = event.run.place.channel
        if event.reveal is not None:
            await self.presenter.reveal(channel, *event.reveal)
        if event.advance is not None:
            await self.presenter.advance(channel, event.advance)
