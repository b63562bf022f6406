"""The one message that shows each step: posted once, edited in place from any process."""

from __future__ import annotations

import asyncio
import weakref

from bot.engine import LessonBotError, LessonEngine, StepCard
from bot.slack_adapter.messages import SlackMessages
from bot.slack_adapter.render import step_blocks, step_fallback


class StepMessages:
    """Posts step cards, remembers their ts through the engine, and edits them one at a time."""

    def __init__(self, engine: LessonEngine, messages: SlackMessages) -> None:
        self.engine = engine
        self.messages = messages
        self._locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def post(self, channel: str, card: StepCard) -> str | None:
        """Post a step's card and remember its ts so later edits find it."""
        ts = await self.messages.post(channel, step_fallback(card), step_blocks(card))
        if ts is not None:
            await self.engine.remember_message(card.run_id, card.step_id, ts)
        return ts

    async def update(self, channel: str, card: StepCard) -> bool:
        """Redraw a step's message with this card (e.g. closed at the reveal)."""
        async with self._lock(card.run_id, card.step_id):
            return await self._redraw(channel, card)

    async def refresh(self, channel: str, run_id: int, step_id: str) -> None:
        """Redraw a step's message from the engine's current state (the live counter)."""
        async with self._lock(run_id, step_id):
            try:
                card = await self.engine.current_card(run_id)
            except LessonBotError:
                return
            if card.step_id == step_id:
                await self._redraw(channel, card)

    async def _redraw(self, channel: str, card: StepCard) -> bool:
        ts = await self.engine.step_message(card.run_id, card.step_id)
        if ts is None:
            return False
        return await self.messages.update(channel, ts, step_fallback(card), step_blocks(card))

    def _lock(self, run_id: int, step_id: str) -> asyncio.Lock:
        key = (run_id, step_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
