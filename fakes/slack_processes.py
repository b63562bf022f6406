"""Real `python -m bot slack --http` processes against the fake Slack, for multi-process tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import aiohttp

from fakes.environment import process_environment
from fakes.fake_slack import FakeSlack
from fakes.lifeline import tied_to_this_process
from fakes.slack_driver import BOT_TOKEN, LISTED_HOST, SIGNING_SECRET, SlackDriver

READY_TIMEOUT = 30.0
CLEARED_PREFIXES = ("SLACK_", "DISCORD_", "DATABASE_URL", "LOG_LEVEL", "DEFAULT_LESSON")


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bot_environment(fake: FakeSlack, database_url: str) -> dict[str, str]:
    """The environment of a bot process: this test's secrets, fake API and database only."""
    return process_environment(
        CLEARED_PREFIXES,
        {
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_HOST_USERS": LISTED_HOST,
            "SLACK_API_URL": fake.base_url,
            "DATABASE_URL": database_url,
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
        },
    )


@dataclass
class BotProcess:
    """One HTTP-mode bot process on a fixed port, started (and restarted) in its own group."""

    port: int
    env: dict[str, str]
    workdir: Path
    log_path: Path
    process: asyncio.subprocess.Process | None = None
    groups: list[int] = field(default_factory=list)
    _log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """Where Slack (the driver) sends requests."""
        return f"http://127.0.0.1:{self.port}/slack/events"

    async def start(self) -> None:
        """Run `python -m bot slack --http` (in a new process group), ending with this process."""
        self._log = self._log or self.log_path.open("ab")
        command, kept = tied_to_this_process(
            "bot", "slack", "--http", "--port", str(self.port), "--host", "127.0.0.1"
        )
        self.process = await asyncio.create_subprocess_exec(
            *command,
            pass_fds=kept,
            env=self.env,
            cwd=self.workdir,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )
        self.groups.append(self.process.pid)

    async def wait_ready(self, session: aiohttp.ClientSession) -> None:
        """Wait until the process answers HTTP (an unsigned request gets its 401)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READY_TIMEOUT
        while not await self._answers(session):
            assert self.process is not None and self.process.returncode is None, self.log_tail()
            assert loop.time() < deadline, f"not ready in {READY_TIMEOUT} s\n{self.log_tail()}"
            await asyncio.sleep(0.05)

    async def _answers(self, session: aiohttp.ClientSession) -> bool:
        try:
            async with session.post(self.url, data=b"") as response:
                return response.status == 401
        except aiohttp.ClientError:
            return False

    async def kill_hard(self) -> None:
        """SIGKILL the bot process itself (not its worker), as a crash would."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        await self.process.wait()

    async def crash(self) -> None:
        """The bot killed at once (`kill_hard`)."""
        await self.kill_hard()

    async def wait(self) -> int:
        """Wait for the bot to end; its exit status."""
        assert self.process is not None
        return await self.process.wait()

    async def terminate(self, timeout: float = READY_TIMEOUT) -> int:
        """SIGTERM the bot, as a deploy would, and return its exit status once it is gone."""
        assert self.process is not None
        self.process.terminate()
        async with asyncio.timeout(timeout):
            return await self.process.wait()

    async def stop(self) -> None:
        """Kill every process group this bot ever started, and wait for the bot."""
        for group in self.groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        if self.process is not None:
            await self.process.wait()
        if self._log is not None:
            self._log.close()

    def log_tail(self, lines: int = 40) -> str:
        """The end of the process's output, for failure messages."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def log_text(self) -> str:
        """Everything the process wrote."""
        return self.log_path.read_text(errors="replace")


@contextlib.asynccontextmanager
async def bot_processes(
    count: int, fake: FakeSlack, database_url: str, workdir: Path
) -> AsyncIterator[list[tuple[BotProcess, SlackDriver]]]:
    """`count` ready bot processes on one database, each with a driver; always killed after."""
    env = bot_environment(fake, database_url)
    bots = [BotProcess(free_port(), env, workdir, workdir / f"bot-{n}.log") for n in range(count)]
    async with aiohttp.ClientSession() as session:
        try:
            await asyncio.gather(*(bot.start() for bot in bots))
            await asyncio.gather(*(bot.wait_ready(session) for bot in bots))
            yield [(bot, SlackDriver(bot.url, fake, session)) for bot in bots]
        finally:
            await asyncio.gather(*(bot.stop() for bot in bots))
