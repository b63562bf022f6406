"""The real bolt app in HTTP mode on loopback, its Web API client pointed at the fake Slack."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from pydantic import SecretStr

from bot.runtime import Runtime
from bot.settings import Settings
from bot.slack_adapter import build_slack_bot
from bot.slack_adapter.run import EVENTS_PATH, start_http
from tests.fakes.fake_slack import Call, FakeSlack
from tests.slack_adapter.driver import BOT_TOKEN, HOST, LISTED_HOST, SIGNING_SECRET, SlackDriver


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


def settings_for(fake: FakeSlack) -> Settings:
    """The app's settings: test credentials, the fake's URL, no .env file, default intervals."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        slack_bot_token=SecretStr(BOT_TOKEN),
        slack_signing_secret=SecretStr(SIGNING_SECRET),
        slack_host_users=LISTED_HOST,
        slack_api_url=fake.base_url,
    )


@asynccontextmanager
async def fake_slack() -> AsyncIterator[TimedFakeSlack]:
    """The fake Web API on a random loopback port, with one workspace admin."""
    fake = TimedFakeSlack(admins={HOST})
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@asynccontextmanager
async def serving(runtime: Runtime, fake: FakeSlack) -> AsyncIterator[SlackDriver]:
    """The app on 127.0.0.1 (random port) and a driver; work after acks finishes on the way out."""
    bot = build_slack_bot(settings_for(fake), runtime)
    async with bot.connected():
        runner = await start_http(bot.app, "127.0.0.1", 0)
        try:
            port = runner.addresses[0][1]
            async with aiohttp.ClientSession() as session:
                yield SlackDriver(f"http://127.0.0.1:{port}{EVENTS_PATH}", fake, session)
        finally:
            await runner.cleanup()
