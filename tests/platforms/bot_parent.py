"""`python -m tests.platforms.bot_parent PLATFORM FOLDER`: a short-lived parent of a bot process.

It serves the platform's fake, starts a bot process on an SQLite file in FOLDER as the platform
tests do, prints the bot's process id once it is up, and waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp

from fakes.discord_processes import start_bot_process
from fakes.fake_discord import FakeDiscord
from fakes.fake_slack import FakeSlack
from fakes.slack_processes import BotProcess, bot_environment, free_port


async def discord_bot(folder: Path, database_url: str) -> None:
    """A bot process on the fake Discord; its id printed once it identified."""
    async with FakeDiscord() as fake:
        running = await start_bot_process(fake, database_url, folder, "bot", "INFO")
        print(running.pid, flush=True)
        await asyncio.Event().wait()


async def slack_bot(folder: Path, database_url: str) -> None:
    """A bot process on the fake Slack; its id printed once it answers HTTP."""
    async with FakeSlack() as fake, aiohttp.ClientSession() as session:
        running = BotProcess(free_port(), bot_environment(fake, database_url), folder,
                             folder / "bot.log")
        await running.start()
        await running.wait_ready(session)
        assert running.process is not None
        print(running.process.pid, flush=True)
        await asyncio.Event().wait()


def main(platform: str, folder: str) -> None:
    """Start the platform's bot process in `folder` and wait for ever."""
    place = Path(folder)
    database_url = f"sqlite+aiosqlite:///{place / 'bot.db'}"
    asyncio.run((discord_bot if platform == "discord" else slack_bot)(place, database_url))


if __name__ == "__main__":
    main(*sys.argv[1:])
