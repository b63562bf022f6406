"""Shared fixtures for the answer-checker tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.verifier import Checker


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_checker() -> AsyncIterator[Checker]:
    """One running checker (two workers, 2 s timeout) shared by a test module."""
    async with Checker() as shared:
        yield shared
