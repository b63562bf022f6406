"""Shared fixtures for the answer-checker tests."""

from __future__ import annotations

import resource
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from bot.verifier import Checker


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_checker() -> AsyncIterator[Checker]:
    """One running checker (two workers, 2 s timeout) shared by a test module."""
    async with Checker() as shared:
        yield shared


@pytest.fixture(autouse=True)
def cpu_limit_restored() -> Iterator[None]:
    """The test process's CPU-time limit put back after each test.

    A check run in this process (`handle_request`) caps the process's CPU time a few seconds
    ahead, as it does in a worker; left in place, the cap would end this test process (SIGXCPU)
    a few seconds of work later, in whatever test it ran next.
    """
    limits = resource.getrlimit(resource.RLIMIT_CPU)
    yield
    resource.setrlimit(resource.RLIMIT_CPU, limits)
