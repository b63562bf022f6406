"""Showing what the engine produced: step cards, reveals, moving on, results."""

from __future__ import annotations

from typing import Any

from bot.engine import Advance, RevealCard, StepCard, SummaryCard
from bot.slack_adapter.blocks import context, without_actions
from bot.slack_adapter.chart_uploads import ChartUploader
from bot.slack_adapter.counter import LiveCounter
from bot.slack_adapter.messages import SlackMessages
from bot.slack_adapter.render import reveal_blocks, summary_blocks, title_fallback
from bot.slack_adapter.step_messages import StepMessages


class Presenter:
    """Turns engine results into channel messages, in the order members should read them."""

    def __init__(
        self,
        steps: StepMessages,
        messages: SlackMessages,
        counter: LiveCounter,
        charts: ChartUploader,
    ) -> None:
        self.steps = steps
        self.messages = messages
        self.counter = counter
        self.charts = charts

    async def step(self, channel: str, card: StepCard) -> str | None:
        """Post a new step's card, and its chart if it has one; the card's ts if posted."""
        ts = await self.steps.post(channel, card)
        if ts is not None and card.chart is not None:
            await self.charts.upload(channel, card.chart)
        return ts

    async def close(self, channel: str, card: StepCard) -> None:
        """Redraw a step's message as closed: its buttons go, its final count stays."""
        self.counter.forget(channel, card.run_id, card.step_id)
        await self.steps.update(channel, card)

    async def reveal(self, channel: str, closed: StepCard, reveal: RevealCard) -> None:
        """Close the question, then post its results and chart."""
        await self.close(channel, closed)
        await self.messages.post(channel, title_fallback(reveal.title), reveal_blocks(reveal))
        if reveal.chart is not None:
            await self.charts.upload(channel, reveal.chart)

    async def advance(self, channel: str, advance: Advance) -> None:
        """Show a move on: any reveal it made first, then the next step or the results."""
        if advance.closed_card is not None and advance.reveal is not None:
            await self.reveal(channel, advance.closed_card, advance.reveal)
        elif advance.closed_card is not None:
            await self.close(channel, advance.closed_card)
        if advance.card is not None:
            await self.step(channel, advance.card)
        if advance.summary is not None:
            await self.summary(channel, advance.summary)

    async def retire_buttons(self, channel: str, ts: str, message: dict[str, Any]) -> None:
        """Take the buttons off a message the lesson has moved past (e.g. a reveal's Next)."""
        blocks = [*without_actions(message.get("blocks") or []), context("➡️ Moved on.")]
        await self.messages.update(channel, ts, str(message.get("text") or "Moved on."), blocks)

    async def stopped(self, channel: str, closed: StepCard, summary: SummaryCard) -> None:
        """A run ended early: close its step, then post its results."""
        await self.close(channel, closed)
        await self.summary(channel, summary)

    async def summary(self, channel: str, summary: SummaryCard) -> None:
        """Post a run's results and their chart in the channel."""
        await self.messages.post(channel, title_fallback(summary.title), summary_blocks(summary))
        if summary.chart is not None:
            await self.charts.upload(channel, summary.chart)

    async def private_summary(self, channel: str, user: str, summary: SummaryCard) -> None:
        """Show a run's results to one member only."""
        blocks = summary_blocks(summary)
        await self.messages.ephemeral(channel, user, title_fallback(summary.title), blocks)
