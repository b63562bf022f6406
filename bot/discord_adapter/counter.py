"""The live "N answered" line on question messages, edited at most once per interval."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from bot.discord_adapter.messenger import Messenger
from bot.discord_adapter.refs import MessageRef
from bot.discord_adapter.render import step_content
from bot.engine import LessonBotError, LessonEngine
from bot.service.live_counter import CounterThrottle

DEFAULT_INTERVAL = 3.0


@dataclass(frozen=True)
class CounterKey:
    """One step's question message."""

    run_id: int
    step_id: str
    ref: MessageRef


class LiveCounters:
    """Coalesces answer counts into few edits of the question message's text line."""

    def __init__(
        self, engine: LessonEngine, messenger: Messenger, interval: float = DEFAULT_INTERVAL
    ) -> None:
        self.engine = engine
        self.messenger = messenger
        self.throttle = CounterThrottle(self._edit, interval)

    def touch(self, run_id: int, step_id: str, channel_id: int, message_id: int | None) -> None:
        """Note that a step's count changed; its message will show it soon."""
        if message_id is not None:
            self.throttle.touch(CounterKey(run_id, step_id, MessageRef(channel_id, message_id)))

    def forget(self, run_id: int, step_id: str, ref: MessageRef) -> None:
        """Drop a waiting edit (the question is being closed with its final count)."""
        self.throttle.forget(CounterKey(run_id, step_id, ref))

    async def flush(self) -> None:
        """Make every waiting edit now-or-soon and wait for it."""
        await self.throttle.flush()

    async def _edit(self, key: Hashable) -> None:
        assert isinstance(key, CounterKey)
        try:
            card = await self.engine.current_card(key.run_id)
        except LessonBotError:
            return
        if card.step_id == key.step_id and not card.closed:
            await self.messenger.edit(key.ref, step_content(card))
