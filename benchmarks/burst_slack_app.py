"""The real bolt app in HTTP mode, in a process of its own, its Web API client at the fake Slack."""

from __future__ import annotations

import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from fakes.fake_slack import Call, FakeSlack
from fakes.slack_driver import SlackDriver
from fakes.slack_processes import BotProcess, bot_environment, free_port


class TimedFakeSlack(FakeSlack):
    """The fake Web API, also noting when each chat.update arrived (monotonic) and its ts.

    The fake records calls without times; its one recording hook is extended here.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self.updates: list[tuple[float, str]] = []

    async def _record(self, call: Call) -> None:
        if call.method == "chat.update" and call.ok:
            self.updates.append((time.monotonic(), str(call.args.get("ts"))))
        await super()._record(call)

    def update_times(self, ts: str, since: float) -> list[float]:
        """Seconds after `since` at which the message `ts` was edited."""
        return [at - since for at, edited in self.updates if edited == ts and at >= since]


@asynccontextmanager
async def serving(fake: FakeSlack, database_url: str) -> AsyncIterator[SlackDriver]:
    """`python -m bot slack --http` in its own process on 127.0.0.1, and a driver for it.

    The bot gets its own process, as it would in production: the fake Slack and the burst of
    requests run in the benchmark's process, so the time they take is not charged to the bot.
    The bot is stopped with SIGTERM, so it finishes the work it acknowledged.
    """
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-bot-") as name:
        folder = Path(name)
        bot = BotProcess(free_port(), bot_environment(fake, database_url), folder, folder / "log")
        async with aiohttp.ClientSession() as session:
            try:
                await bot.start()
                await bot.wait_ready(session)
                yield SlackDriver(bot.url, fake, session)
                await bot.terminate()
            finally:
                await bot.stop()
