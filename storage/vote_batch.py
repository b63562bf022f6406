"""Votes written in batches: every click queued meanwhile goes into one transaction.

Each click still gets its own answer (accepted, refused, the previous value) only after the
transaction that holds its vote has committed, so the database stays the source of truth;
but a burst of clicks costs a handful of statements instead of a handful per click.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.model.records import Member, Position, RunRecord, RunState, VoteResult
from storage.batching import BatchQueue
from storage.models import MemberRow, RunRow, VoteRow
from storage.records import run_record
from storage.upsert import member_upsert, member_values, upsert_statement

VOTE_KEY = ["run_id", "step_id", "member_id", "kind"]


@dataclass(frozen=True)
class VoteRequest:
    """One member's vote, waiting for the batch that writes it."""

    run_id: int
    step_id: str
    member: Member
    kind: str
    value: str
    expected: Position | None = None
    blocked_by: str | None = None


class VoteBatcher:
    """Queues votes and writes everything queued in one transaction at a time."""

    def __init__(self, database: AsyncEngine) -> None:
        self.database = database
        self.dialect = database.dialect.name
        self._queue: BatchQueue[VoteRequest, VoteResult] = BatchQueue(self._write_batch)
        self._member_upsert = member_upsert(self.dialect)  # built once: a batch reuses them
        self._vote_upsert = upsert_statement(
            self.dialect, VoteRow.__table__, VOTE_KEY, ["value", "updated_at"]
        )

    async def write(self, request: VoteRequest) -> VoteResult:
        """Queue a vote and wait until its batch has committed (or failed)."""
        return await self._queue.submit(request)

    async def _write_batch(self, batch: Sequence[VoteRequest]) -> list[VoteResult]:
        async with self.database.begin() as connection:
            runs = await self._runs(connection, {request.run_id for request in batch})
            open_requests = [r for r in batch if _still_open(r, runs.get(r.run_id))]
            members = await self._member_ids(connection, open_requests, runs)
            previous = await self._previous_votes(connection, open_requests, members)
            results, rows = _decide(batch, runs, members, previous)
            if rows:
                await connection.execute(self._vote_upsert, rows)
        return results

    async def _runs(self, connection: AsyncConnection, run_ids: set[int]) -> dict[int, RunRecord]:
        query = select(RunRow.__table__).where(RunRow.id.in_(run_ids))
        if self.dialect == "postgresql":
            query = query.with_for_update(read=True)  # a reveal waits for votes in flight
        rows = await connection.execute(query)
        return {row.id: run_record(row) for row in rows}

    async def _member_ids(
        self,
        connection: AsyncConnection,
        requests: list[VoteRequest],
        runs: dict[int, RunRecord],
    ) -> dict[tuple[str, str, str], int]:
        keys = {_member_key(runs[r.run_id], r.member): r.member for r in requests}
        if not keys:
            return {}
        params = [member_values(p, w, member) for (p, w, _), member in keys.items()]
        await connection.execute(self._member_upsert, params)
        query = select(
            MemberRow.platform, MemberRow.workspace_id, MemberRow.user_id, MemberRow.id
        ).where(
            tuple_(MemberRow.platform, MemberRow.workspace_id, MemberRow.user_id).in_(list(keys))
        )
        return {(p, w, u): member_id for p, w, u, member_id in await connection.execute(query)}

    async def _previous_votes(
        self,
        connection: AsyncConnection,
        requests: list[VoteRequest],
        members: dict[tuple[str, str, str], int],
    ) -> dict[tuple[int, str, int, str], str]:
        if not requests:
            return {}
        member_ids = set(members.values())
        kinds = {r.kind for r in requests} | {r.blocked_by for r in requests if r.blocked_by}
        query = select(
            VoteRow.run_id, VoteRow.step_id, VoteRow.member_id, VoteRow.kind, VoteRow.value
        ).where(
            VoteRow.run_id.in_({r.run_id for r in requests}),
            VoteRow.member_id.in_(member_ids),
            VoteRow.kind.in_(kinds),
        )
        rows = await connection.execute(query)
        return {(run, step, member, kind): value for run, step, member, kind, value in rows}



def _still_open(request: VoteRequest, run: RunRecord | None) -> bool:
    if run is None or run.state is not RunState.ACTIVE:
        return False
    return request.expected is None or run.position == request.expected


def _member_key(run: RunRecord, member: Member) -> tuple[str, str, str]:
    return (run.place.platform, run.place.workspace, member.user_id)


def _decide(
    batch: Sequence[VoteRequest],
    runs: dict[int, RunRecord],
    members: dict[tuple[str, str, str], int],
    previous: dict[tuple[int, str, int, str], str],
) -> tuple[list[VoteResult], list[dict[str, Any]]]:
    """Each request's result in order, and the vote rows to write (the last per key wins)."""
    now = datetime.now(UTC)
    results: list[VoteResult] = []
    rows: dict[tuple[int, str, int, str], dict[str, Any]] = {}
    for request in batch:
        run = runs.get(request.run_id)
        if not _still_open(request, run):
            results.append(VoteResult(accepted=False, run=run))
            continue
        assert run is not None
        member_id = members[_member_key(run, request.member)]
        key = (request.run_id, request.step_id, member_id, request.kind)
        blocker = (request.run_id, request.step_id, member_id, request.blocked_by or "")
        if request.blocked_by and blocker in previous:
            results.append(VoteResult(accepted=False, run=run, blocked=True))
            continue
        results.append(VoteResult(accepted=True, run=run, previous=previous.get(key)))
        previous[key] = request.value
        rows[key] = _vote_row(request, member_id, now)
    return results, list(rows.values())


def _vote_row(request: VoteRequest, member_id: int, now: datetime) -> dict[str, Any]:
    return {
        "run_id": request.run_id,
        "step_id": request.step_id,
        "member_id": member_id,
        "kind": request.kind,
        "value": request.value,
        "created_at": now,
        "updated_at": now,
    }
