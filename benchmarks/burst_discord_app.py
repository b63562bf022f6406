"""The real Discord bot in a process of its own (`fakes.discord_bot_process`), at the fake Discord.

The bot gets its own process, as it would in production: the fake Discord and the burst
of clicks it sends run in the benchmark's process, so they do not share the bot's event
loop, and the time they take is not charged to the bot.
"""

from __future__ import annotations

import signal
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fakes.discord_processes import BotProcess, start_bot_process
from fakes.fake_discord import FakeDiscord

LOG_LEVEL = "INFO"
"""The bot's default log level."""


@asynccontextmanager
async def bot_process(fake: FakeDiscord, database_url: str) -> AsyncIterator[BotProcess]:
    """The bot connected to the fake; stopped with SIGTERM (counters flushed) afterwards."""
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-bot-") as folder:
        bot = await start_bot_process(fake, database_url, Path(folder), "bot", LOG_LEVEL)
        try:
            yield bot
        finally:
            await bot.kill(signal.SIGTERM)
