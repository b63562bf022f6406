"""A chart that takes as long as a test wants to draw, as on a busy machine."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from bot.model import AnyChart, LineChart
from bot.service import DrawnChart, Presenter


@dataclass
class SlowDrawing:
    """The toy's training chart is drawn only once `released` is set."""

    started: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_started(self, timeout: float = 15.0) -> None:
        """Return once the slow chart is being drawn; fail the test after `timeout` seconds."""
        try:
            await asyncio.wait_for(self.started.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the slow chart was not drawn within {timeout} s") from None


def slow_training_chart(monkeypatch: pytest.MonkeyPatch, presenter: Presenter) -> SlowDrawing:
    """Make the presenter's drawing of training curves wait until the test releases it."""
    slow = SlowDrawing()
    draw = presenter.draw

    async def slow_draw(chart: AnyChart | None) -> DrawnChart | None:
        if isinstance(chart, LineChart):
            slow.started.set()
            await slow.released.wait()
        return await draw(chart)

    monkeypatch.setattr(presenter, "draw", slow_draw)
    return slow
