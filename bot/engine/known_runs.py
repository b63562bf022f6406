"""Runs as first loaded, kept in memory; a burst of clicks on an unseen run loads it once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.model.records import RunRecord

KNOWN_RUNS_KEPT = 10_000
RunLoader = Callable[[int], Awaitable[RunRecord | None]]


class KnownRuns:
    """A bounded map of run id to run; concurrent misses on one id share a single load."""

    def __init__(self, load: RunLoader, kept: int = KNOWN_RUNS_KEPT) -> None:
        self.load = load
        self.kept = kept
        self._runs: dict[int, RunRecord] = {}
        self._loading: dict[int, asyncio.Future[RunRecord | None]] = {}

    async def get(self, run_id: int) -> RunRecord | None:
        """The run with this id, loaded at most once however many callers ask at the same time."""
        run = self._runs.get(run_id)
        if run is not None:
            return run
        pending = self._loading.get(run_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(run_id))
            self._loading[run_id] = pending
        return await asyncio.shield(pending)

    def remember(self, run: RunRecord) -> None:
        """Keep a run just created or loaded elsewhere, so its first clicks need no query."""
        if len(self._runs) >= self.kept:
            self._runs.clear()
        self._runs[run.id] = run

    def forget_host(self, platform: str, workspace: str, user_id: str) -> None:
        """Drop the runs a member hosts in a workspace (loaded again, as stored, when asked)."""
        for run in list(self._runs.values()):
            if (run.place.platform, run.place.workspace, run.host_id) == (
                platform, workspace, user_id
            ):
                del self._runs[run.id]

    def __len__(self) -> int:
        return len(self._runs)

    async def _load(self, run_id: int) -> RunRecord | None:
        try:
            run = await self.load(run_id)
        finally:
            del self._loading[run_id]
        if run is not None:
            self.remember(run)
        return run
