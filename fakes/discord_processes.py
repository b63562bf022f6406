"""The real Discord bot as a separate process, pointed at the fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

from fakes.environment import process_environment
from fakes.fake_discord import GUILD_ID, HOST_ROLE_ID, TOKEN, FakeDiscord
from fakes.lifeline import tied_to_this_process

START_TIMEOUT = 30.0


@dataclass
class BotProcess:
    """One running bot process and the file its log goes to."""

    process: asyncio.subprocess.Process
    log: Path

    @property
    def pid(self) -> int:
        """The bot's process id."""
        return self.process.pid

    async def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send `sig` to the bot (and its checker worker, in its process group); wait for it."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, sig)
        await self.process.wait()

    async def wait(self) -> int:
        """Wait for the bot to end; its exit status."""
        return await self.process.wait()

    async def crash(self) -> None:
        """Kill the bot and its checker worker at once, as a crash would."""
        await self.kill(signal.SIGKILL)

    async def terminate(self) -> int:
        """Stop the bot as a deploy would (SIGTERM); its exit status."""
        await self.kill(signal.SIGTERM)
        return await self.wait()

    def log_text(self) -> str:
        """Everything the process logged so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


def bot_environment(
    fake: FakeDiscord, database_url: str, log_level: str = "DEBUG"
) -> dict[str, str]:
    """The environment of a bot process: this one's, with Discord and the database replaced."""
    return process_environment(
        ("DISCORD_", "SLACK_", "LESSON_", "DATABASE_"),
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_GUILD_ID": str(GUILD_ID),
            "LESSON_HOST_ROLE_ID": str(HOST_ROLE_ID),
            "DATABASE_URL": database_url,
            "LOG_LEVEL": log_level,
        },
    )


async def start_bot_process(
    fake: FakeDiscord, database_url: str, folder: Path, name: str, log_level: str = "DEBUG"
) -> BotProcess:
    """Start the bot (ending with this process) in `folder`, no .env there; wait for IDENTIFY."""
    identified = len(fake.identifies)
    log = folder / f"{name}.log"
    with log.open("wb") as output:
        command, kept = tied_to_this_process(
            "fakes.discord_bot_process", fake.api_url, fake.gateway_url
        )
        process = await asyncio.create_subprocess_exec(
            *command,
            pass_fds=kept,
            cwd=folder,
            env=bot_environment(fake, database_url, log_level),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=output,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
    running = BotProcess(process, log)
    try:
        await fake.wait_identified(identified + 1, timeout=START_TIMEOUT)
    except AssertionError:
        await running.kill()
        raise AssertionError(f"the bot process did not connect:\n{running.log_text()}") from None
    return running
