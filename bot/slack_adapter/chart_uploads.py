"""Drawing a chart as PNG off the event loop and sharing it in the channel."""

from __future__ import annotations

import asyncio
import re

from bot.charts import chart_png
from bot.engine import AnyChart
from bot.slack_adapter.messages import SlackMessages
from bot.slack_adapter.mrkdwn import to_plain

_UNSAFE = re.compile(r"[^a-z0-9]+")


def chart_filename(chart: AnyChart) -> str:
    """A tidy file name from the chart's title."""
    slug = _UNSAFE.sub("-", to_plain(chart.title).lower()).strip("-")[:40]
    return f"{slug or 'chart'}.png"


class ChartUploader:
    """Renders charts one at a time in a worker thread, off the event loop."""

    def __init__(self, messages: SlackMessages) -> None:
        self.messages = messages
        self._drawing = asyncio.Lock()

    async def upload(self, channel: str, chart: AnyChart) -> None:
        """Draw the chart and share it in the channel; failures are logged, not raised."""
        async with self._drawing:
            png = await asyncio.to_thread(chart_png, chart)
        await self.messages.upload_png(channel, png, to_plain(chart.title), chart_filename(chart))
