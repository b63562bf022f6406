"""Showing what the engine produced in a channel, the same way on every platform.

Steps, closed questions, reveals, moving on, results, timer events and the live "N answered"
counter all go through here to a platform's `Surface`. Each step's message reference is
stored with the engine, so any process (or the same one after a restart) can edit it. A
post the channel refused, or one lost when the process stopped, is posted again from what
is stored: by `/lesson repost`, when the lesson moves past refused results, and at startup.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from bot.charts import chart_png
from bot.engine import (
    NOT_POSTED,
    Advance,
    AnyChart,
    LessonBotError,
    LessonEngine,
    RevealCard,
    RunRecord,
    StepCard,
    SummaryCard,
    TimerFired,
)
from bot.model.chart_text import describe_chart
from bot.service.live_counter import CounterThrottle
from bot.service.surface import Card, DrawnChart, Surface

log = logging.getLogger(__name__)

COUNTER_INTERVAL = 3.0
RESULTS = "+results"
NOT_SHOWN = (
    "Saved, but the channel refused the bot's post, so it does not show this yet. Once the "
    "bot may post here, `/lesson repost` posts it (and `/lesson next` posts missed results "
    "before moving on)."
)

Refused = str | None
"""What to tell the host when the channel refused a post; None when everything was shown."""


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

    async def reveal(self, channel: str, closed: StepCard, reveal: RevealCard) -> Refused:
        """Close the question, then post its results with their chart."""
        await self.close(channel, closed)
        return await self.results(channel, reveal)

    async def results(self, channel: str, reveal: RevealCard) -> Refused:
        """Post a question's results and remember their message, or that it was refused."""
        ref: str | None = None
        async with self._results_lock(reveal):
            try:
                ref = await self.post(channel, reveal)
            finally:
                await self.engine.remember_reveal(reveal.run_id, reveal.step_id, ref)
        return None if ref is not None else NOT_SHOWN

    async def advance(self, channel: str, advance: Advance) -> Refused:
        """Show a move on: the step left closed, its results, then the next step or the end."""
        if advance.closed_card is not None:
            await self.close(channel, advance.closed_card)
        refused = None
        if advance.reveal is not None:  # revealed by this move: posted with Next disabled
            refused = await self.results(channel, advance.left or advance.reveal)
        elif advance.left is not None:
            refused = await self.retire(channel, advance.left)
        if advance.card is not None and await self.step(channel, advance.card) is None:
            refused = NOT_SHOWN
        if advance.summary is not None:
            await self.post(channel, advance.summary)
        return refused

    async def repost(self, channel: str, shown: StepCard | RevealCard) -> Refused:
        """Post again what the channel shows last: the current step, or its question's results."""
        if isinstance(shown, RevealCard):
            return await self.results(channel, shown)
        return None if await self.step(channel, shown) is not None else NOT_SHOWN

    async def retire(self, channel: str, left: RevealCard) -> Refused:
        """Redraw results the lesson moved past, Next disabled; post them if they were refused."""
        async with self._results_lock(left):
            ref = await self.engine.reveal_message(left.run_id, left.step_id)
            if ref is not None and ref != NOT_POSTED:
                await self.surface.edit(channel, ref, left)
        return await self.results(channel, left) if ref == NOT_POSTED else None

    async def stopped(
        self, channel: str, closed: StepCard, summary: SummaryCard, left: RevealCard | None = None
    ) -> None:
        """A run ended early: close its step (and its results' Next), then post its results."""
        await self.close(channel, closed)
        if left is not None:
            await self.retire(channel, left)
        await self.post(channel, summary)

    async def catch_up(self, platform: str) -> None:
        """Post what each active run of a platform shows last, if its post was lost or refused.

        Called once at startup: a reveal stored just before the process stopped gets its
        results posted. One process posts each (a claim in the database); a failure is
        logged, and the host's `/lesson repost` stays possible.
        """
        for run in await self.engine.active_runs(platform):
            try:
                await self._catch_up(platform, run)
            except Exception:
                log.exception("could not post the missing message of run %s", run.id)

    async def _catch_up(self, platform: str, run: RunRecord) -> None:
        shown = await self.engine.current_post(run)
        if isinstance(shown, RevealCard):
            kind, ref = "results", await self.engine.reveal_message(run.id, shown.step_id)
        else:
            kind, ref = "step", await self.engine.step_message(run.id, shown.step_id)
        key = f"catch-up:{run.id}:{shown.step_id}:{kind}"
        if ref in (None, NOT_POSTED) and await self.engine.first_delivery(platform, key):
            await self.repost(run.place.channel, shown)

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
        return DrawnChart(png, chart.title, describe_chart(chart))

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

    def _results_lock(self, reveal: RevealCard) -> asyncio.Lock:
        """Held while a question's results are posted, so retiring them waits for the post."""
        return self._edit_lock(reveal.run_id, reveal.step_id + RESULTS)

    def _edit_lock(self, run_id: int, step_id: str) -> asyncio.Lock:
        key = (run_id, step_id)
        lock = self._editing.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._editing[key] = lock
        return lock
