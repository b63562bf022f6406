"""Fixtures: every test here runs once on Discord and once on Slack."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager

import pytest

from bot.engine import LessonEngine
from bot.verifier import Checker
from tests.platforms.driver import Platform
from tests.platforms.on_discord import DiscordPlatform
from tests.platforms.on_slack import SlackPlatform

PLATFORMS = ("discord", "slack")
DUE_CHECK_SECONDS = 1.0
"""How often the bot processes of a test asking for `quick_due_checks` look for due work."""


def opened(name: str, checker: Checker) -> AbstractAsyncContextManager[Platform]:
    """The named platform's fake, serving while the block runs."""
    if name == "discord":
        return DiscordPlatform.opened(checker)
    return SlackPlatform.opened(checker)


@pytest.fixture(params=PLATFORMS)
async def platform(request: pytest.FixtureRequest, checker: Checker) -> AsyncIterator[Platform]:
    """The platform's fake serving for the test, with no bot yet."""
    async with opened(request.param, checker) as serving:
        yield serving


@pytest.fixture
async def lesson(platform: Platform, engine: LessonEngine) -> AsyncIterator[Platform]:
    """The real bot running in this process on the test's engine, and the platform to drive."""
    async with platform.running(engine):
        yield platform


@pytest.fixture
def quick_due_checks(monkeypatch: pytest.MonkeyPatch) -> float:
    """Bot processes started by the test look for due assignments and recall checks each
    second (`DUE_CHECK_INTERVAL`), so a wait for their next look lasts a second, not five."""
    monkeypatch.setenv("DUE_CHECK_INTERVAL", str(DUE_CHECK_SECONDS))
    return DUE_CHECK_SECONDS
