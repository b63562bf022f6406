"""Showing what the engine produced in a channel, the same way on every platform.

Steps, closed questions, reveals, moving on, results, timer events and the live "N answered"
counter all go through here to a platform's `Surface`. Each step's message reference is
stored with the engine, so any process (or the same one after a restart) can edit it.
"""

from __future__ import annotations

import asyncio
import weakref

from bot.charts import chart_png
from bot.engine import (
    Advance,
    AnyChart,
    LessonBotError,
    LessonEngine,
    RevealCard,
    StepCard,
    SummaryCard,
    TimerFired,
)
from bot.service.live_counter import CounterThrottle
from bot.service.surface import Card, DrawnChart, Surface

COUNTER_INTERVAL = 3.0


class Presenter:
    """Turns engine results into channel messages, in the order members should read them."""

    def __init__(
        self, engine: LessonEngine, surface: Surface, counter_interval: float = COUNTER_INTERVAL
    ) -> None:
        self.engine = engine
        self.surface = surface
        self.counters = CounterThrottle(self._refresh, counter_interval)
        self._drawing = asyncio.Lock()
        self._editing: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def step(self, channel: str, card: StepCard) -> str | None:
        """Post a step and remember its message; the message's reference, or None if refused."""
        ref = await self.post(channel, card)
        if ref is not None:
            await self.engine.remember_message(card.run_id, card.step_id, ref)
        return ref

    async def close(self, channel: str, card: StepCard) -> None:
        """Redraw a question's message closed: its final count, no working buttons."""
        self.counters.forget((channel, card.run_id, card.step_id))
        async with self._edit_lock(card.run_id, card.step_id):
            await self._redraw(channel, card)

    async def reveal(self, channel: str, closed: StepCard, reveal: RevealCard) -> None:
        """Close the question, then post its results with their chart."""
        await self.close(channel, closed)
        await self.results(channel, reveal)

    async def results(self, channel: str, reveal: RevealCard) -> None:
        """Post a question's results and remember their message, to retire it when moving on."""
        ref = await self.post(channel, reveal)
        if ref is not None:
            await self.engine.remember_reveal(reveal.run_id, reveal.step_id, ref)

    async def advance(self, channel: str, advance: Advance) -> None:
        """Show a move on: any reveal it made first, then the next step or the results."""
        if advance.closed_card is not None and advance.reveal is not None:
            await self.reveal(channel, advance.closed_card, advance.reveal)
        elif advance.closed_card is not None:
            await self.close(channel, advance.closed_card)
        if advance.left is not None:
            await self.retire(channel, advance.left)
        if advance.card is not None:
            await self.step(channel, advance.card)
        if advance.summary is not None:
            await self.post(channel, advance.summary)

    async def repost(self, channel: str, card: StepCard, reveal: RevealCard | None) -> None:
        """Post the current step again, then its results if it was revealed."""
        await self.step(channel, card)
        if reveal is not None:
            await self.results(channel, reveal)

    async def retire(self, channel: str, left: RevealCard) -> None:
        """Redraw the results of a question the lesson moved past, their Next disabled."""
        ref = await self.engine.reveal_message(left.run_id, left.step_id)
        if ref is not None:
            await self.surface.edit(channel, ref, left)

    async def stopped(self, channel: str, closed: StepCard, summary: SummaryCard) -> None:
        """A run ended early: close its step, then post its results."""
        await self.close(channel, closed)
        await self.post(channel, summary)

    async def timer_fired(self, event: TimerFired) -> None:
        """Show a timed reveal and/or move on in the run's channel."""
        channel = event.run.place.channel
        if event.reveal is not None:
            await self.reveal(channel, *event.reveal)
        if event.advance is not None:
            await self.advance(channel, event.advance)

    def answered(self, channel: str, run_id: int, step_id: str) -> None:
        """A step's answered count changed: its message shows it soon (edits are throttled)."""
        self.counters.touch((channel, run_id, step_id))

    async def flush(self) -> None:
        """Wait for every scheduled counter edit (at shutdown)."""
        await self.counters.flush()

    async def post(self, channel: str, card: Card) -> str | None:
        """Post any card with its chart drawn."""
        return await self.surface.post(channel, card, await self.draw(card.chart))

    async def draw(self, chart: AnyChart | None) -> DrawnChart | None:
        """The chart as PNG, drawn one at a time in a worker thread, off the event loop."""
        if chart is None or not self.surface.shows_charts:
            return None
        async with self._drawing:
            png = await asyncio.to_thread(chart_png, chart)
        return DrawnChart(png, chart.title)

    async def _refresh(self, key: object) -> None:
        assert isinstance(key, tuple)
        channel, run_id, step_id = key
        async with self._edit_lock(run_id, step_id):
            try:
                card = await self.engine.current_card(run_id)
            except LessonBotError:
                return
            if card.step_id == step_id and not card.closed:
                await self._redraw(channel, card)

    async def _redraw(self, channel: str, card: StepCard) -> None:
        ref = await self.engine.step_message(card.run_id, card.step_id)
        if ref is not None:
            await self.surface.edit(channel, ref, card)

    def _edit_lock(self, run_id: int, step_id: str) -> asyncio.Lock:
        key = (run_id, step_id)
        lock = self._editing.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._editing[key] = lock
        return lock
