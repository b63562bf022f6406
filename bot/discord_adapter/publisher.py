"""Showing lesson progress in a channel: steps, closed questions, reveals, results."""

from __future__ import annotations

from bot.discord_adapter.buttons import build_view
from bot.discord_adapter.charts import draw_chart
from bot.discord_adapter.counter import LiveCounters
from bot.discord_adapter.messenger import Messenger
from bot.discord_adapter.refs import MessageRef
from bot.discord_adapter.render import (
    reveal_message,
    step_content,
    step_message,
    summary_message,
)
from bot.engine import Advance, LessonEngine, RevealCard, StepCard, SummaryCard


class Publisher:
    """Posts what the engine returns and remembers each step's message for later edits."""

    def __init__(self, engine: LessonEngine, messenger: Messenger, counters: LiveCounters) -> None:
        self.engine = engine
        self.messenger = messenger
        self.counters = counters

    async def show_step(self, channel_id: int, card: StepCard) -> None:
        """Post a step and save its message with the engine (timers edit it later)."""
        png = await draw_chart(card.chart)
        ref = await self.messenger.send(channel_id, step_message(card, png))
        await self.engine.remember_message(card.run_id, card.step_id, ref.encode())

    async def close_step(self, card: StepCard) -> None:
        """Show a question's final count and disable its buttons."""
        ref = MessageRef.decode(await self.engine.step_message(card.run_id, card.step_id))
        if ref is None:
            return
        self.counters.forget(card.run_id, card.step_id, ref)
        await self.messenger.edit(ref, step_content(card), build_view(card.buttons))

    async def show_reveal(self, channel_id: int, closed: StepCard, reveal: RevealCard) -> None:
        """Close the question, then post its results with a chart."""
        await self.close_step(closed)
        png = await draw_chart(reveal.chart)
        await self.messenger.send(channel_id, reveal_message(reveal, png))

    async def show_advance(self, channel_id: int, advance: Advance) -> None:
        """Post what moving on produced: a reveal first if any, then a step or the results."""
        if advance.closed_card is not None and advance.reveal is not None:
            await self.show_reveal(channel_id, advance.closed_card, advance.reveal)
        elif advance.closed_card is not None:
            await self.close_step(advance.closed_card)
        if advance.card is not None:
            await self.show_step(channel_id, advance.card)
        if advance.summary is not None:
            await self.show_summary(channel_id, advance.summary)

    async def show_summary(self, channel_id: int, summary: SummaryCard) -> None:
        """Post a run's results."""
        png = await draw_chart(summary.chart)
        await self.messenger.send(channel_id, summary_message(summary, png))
