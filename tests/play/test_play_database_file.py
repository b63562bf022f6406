"""Play mode whose SQLite file is deleted mid-lesson says so and stops, rather than run on."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

from fakes.environment import process_environment
from tests.database_file import STOPS_WITHIN, assert_stopped_cleanly, sqlite_url

FIRST_PROMPT = "Press Enter"


async def output_until(stream: asyncio.StreamReader, text: str) -> str:
    """What a process printed, read until `text` appears (it prompts without a newline)."""
    seen = b""
    async with asyncio.timeout(STOPS_WITHIN):
        while text.encode() not in seen:
            chunk = await stream.read(4096)
            assert chunk, f"the process ended before printing {text!r}:\n{seen.decode()}"
            seen += chunk
    return seen.decode()


async def test_deleting_the_database_during_play_stops_it_with_a_clear_message(
    tmp_path: Path,
) -> None:
    path = tmp_path / "play.db"
    env = process_environment(("DATABASE_URL",), {"DATABASE_URL": sqlite_url(path)})
    play = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "play", "--classmates", "3"),
        env=env, cwd=tmp_path, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    assert play.stdout is not None
    try:
        shown = await output_until(play.stdout, FIRST_PROMPT)
        path.unlink()
        async with asyncio.timeout(STOPS_WITHIN):
            shown += (await play.stdout.read()).decode()
            status = await play.wait()
    finally:
        with contextlib.suppress(ProcessLookupError):
            play.kill()
        await play.wait()
    assert_stopped_cleanly(status, shown, path, "vanished")
    assert "The lesson stopped: its database file is gone" in shown
    assert not path.exists()
