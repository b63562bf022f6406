"""Deliveries already handled, shared by every process: a platform retry is handled once.

Claims are written in batches like votes: every claim queued meanwhile goes into one
transaction, and each caller learns whether its claim was the first. A claim is kept for a
day (`KEEP_FOR`), far longer than any platform retries; `prune` removes older ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.batching import BatchQueue
from storage.database import statement_engine
from storage.models import DeliveryRow
from storage.upsert import insert_for

KEEP_FOR = timedelta(days=1)
Claim = tuple[str, str]


class DeliveryClaims:
    """Claims delivery ids with a unique constraint; claims older than `KEEP_FOR` can be pruned."""

    def __init__(self, database: AsyncEngine) -> None:
        self.database = statement_engine(database)
        self.dialect = database.dialect.name
        self._queue: BatchQueue[Claim, bool] = BatchQueue(self._claim_batch)
        self._insert = new_claims_insert(self.dialect)  # built once: a batch reuses it

    async def claim(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery id; False if any process saw it before."""
        return await self._queue.submit((platform, delivery_id))

    async def _claim_batch(self, claims: Sequence[Claim]) -> list[bool]:
        unique = list(dict.fromkeys(claims))
        async with self.database.begin() as connection:
            inserted = await connection.execute(self._insert, _rows(unique))
            first = {(platform, delivery) for platform, delivery in inserted}
        results = []
        for claim in claims:  # a claim repeated within one batch is first only once
            results.append(claim in first)
            first.discard(claim)
        return results

    async def prune(self, now: datetime) -> int:
        """Delete the claims made more than `KEEP_FOR` before `now`; how many went."""
        old = delete(DeliveryRow).where(DeliveryRow.created_at < now - KEEP_FOR)
        async with self.database.begin() as connection:
            result = await connection.execute(old)
        return int(result.rowcount)


def new_claims_insert(dialect: str) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING the rows that were new."""
    statement = insert_for(dialect, DeliveryRow.__table__).on_conflict_do_nothing()
    columns = DeliveryRow.__table__.c
    return statement.returning(columns.platform, columns.delivery_id)


def _rows(claims: list[Claim]) -> list[dict[str, object]]:
    now = datetime.now(UTC)
    return [{"platform": p, "delivery_id": d, "created_at": now} for p, d in claims]
