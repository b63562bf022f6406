"""The checker's worker starts with none of the bot's secrets, and under OS limits."""

from __future__ import annotations

import resource
from pathlib import Path

import pytest

from bot.verifier import Checker

SECRETS = {
    "DISCORD_TOKEN": "discord-token-never-in-the-worker",
    "SLACK_BOT_TOKEN": "xoxb-never-in-the-worker",
    "SLACK_SIGNING_SECRET": "signing-secret-never-in-the-worker",
    "DATABASE_URL": "postgresql+asyncpg://bot:password-never-in-the-worker@db/lessons",
}

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def environment_of(pid: int) -> dict[str, str]:
    """The environment a process was started with, as the OS holds it."""
    entries = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    pairs = (entry.decode().partition("=") for entry in entries if entry)
    return {name: value for name, _, value in pairs}


async def test_the_worker_holds_no_token_and_runs_under_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    async with Checker(workers=1, memory_mb=512) as checker:
        [pid] = checker.worker_pids
        verdict = await checker.check_answer("1/2", "0.5")
        assert verdict.reward == 1
        environment = environment_of(pid)
        assert set(environment) <= {"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"}
        assert not any(secret in Path(f"/proc/{pid}/environ").read_text() for secret in
                       SECRETS.values())
        assert resource.prlimit(pid, resource.RLIMIT_FSIZE) == (0, 0)
        assert resource.prlimit(pid, resource.RLIMIT_NPROC) == (0, 0)
        assert resource.prlimit(pid, resource.RLIMIT_AS)[0] == 512 * 1024 * 1024
        cpu_soft, _ = resource.prlimit(pid, resource.RLIMIT_CPU)
        assert cpu_soft != resource.RLIM_INFINITY and cpu_soft <= 120
