"""The live "N answered" line, edited at most once per interval per step message."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from bot.service.live_counter import CounterThrottle
from bot.slack_adapter.step_messages import StepMessages

COUNTER_INTERVAL = 3.0


@dataclass(frozen=True)
class CounterKey:
    """The step message whose counter changed."""

    channel: str
    run_id: int
    step_id: str


class LiveCounter:
    """Coalesces answer clicks into throttled chat.update calls (chat.update is Tier 3)."""

    def __init__(self, steps: StepMessages, interval: float = COUNTER_INTERVAL) -> None:
        self.steps = steps
        self.throttle = CounterThrottle(self._edit, interval)

    def touch(self, channel: str, run_id: int, step_id: str) -> None:
        """Note that a step's answered count changed."""
        self.throttle.touch(CounterKey(channel, run_id, step_id))

    def forget(self, channel: str, run_id: int, step_id: str) -> None:
        """Drop a waiting edit (the step was closed and redrawn already)."""
        self.throttle.forget(CounterKey(channel, run_id, step_id))

    async def flush(self) -> None:
        """Wait for every scheduled edit."""
        await self.throttle.flush()

    async def _edit(self, key: Hashable) -> None:
        assert isinstance(key, CounterKey)
        await self.steps.refresh(key.channel, key.run_id, key.step_id)
