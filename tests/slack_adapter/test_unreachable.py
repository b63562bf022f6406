"""Socket Mode where Slack cannot be reached: a line saying what to check, no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

from bot.slack_adapter.app import UNREACHABLE
from fakes.environment import process_environment
from fakes.slack_processes import free_port

CLEARED = ("SLACK_", "DISCORD_", "DATABASE_", "LOG_")


async def test_an_unreachable_slack_is_one_line_saying_what_to_check(tmp_path: Path) -> None:
    settings = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_APP_TOKEN": "xapp-test",
        "SLACK_API_URL": f"http://127.0.0.1:{free_port()}/api/",  # nothing listens there
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "slack",
        cwd=tmp_path, env=process_environment(CLEARED, settings),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    seen: list[str] = []
    try:
        async with asyncio.timeout(90):
            while UNREACHABLE not in "".join(seen):
                line = (await process.stderr.readline()).decode()
                assert line, "".join(seen)
                seen.append(line)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
    assert not any("Traceback" in line for line in seen), "".join(seen)
    assert sum("Failed to connect" in line for line in seen) == 1
