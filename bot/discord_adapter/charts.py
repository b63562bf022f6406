"""PNG charts drawn off the event loop, so the gateway heartbeat is never held up."""

from __future__ import annotations

import asyncio

from bot.charts import chart_png
from bot.engine import AnyChart


async def draw_chart(chart: AnyChart | None) -> bytes | None:
    """The chart as PNG bytes, drawn in a worker thread; None when there is no chart."""
    if chart is None:
        return None
    return await asyncio.to_thread(chart_png, chart)
