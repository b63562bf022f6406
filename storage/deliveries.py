"""Deliveries already handled, shared by every process: a platform retry is handled once.

Claims are written in batches like votes: every claim queued meanwhile goes into one
transaction, and each caller learns whether its claim was the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.batching import BatchQueue
from storage.models import DeliveryRow
from storage.upsert import insert_for

KEEP_FOR = timedelta(days=1)
PRUNE_EVERY = 1000
Claim = tuple[str, str]


class DeliveryClaims:
    """Claims delivery ids with a unique constraint; old claims are pruned now and then."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._queue: BatchQueue[Claim, bool] = BatchQueue(self._claim_batch)
        self._insert = new_claims_insert(self.dialect)  # built once: a batch reuses it
        self._claims_since_prune = 0

    async def claim(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery id; False if any process saw it before."""
        return await self._queue.submit((platform, delivery_id))

    async def _claim_batch(self, claims: Sequence[Claim]) -> list[bool]:
        unique = list(dict.fromkeys(claims))
        async with self.engine.begin() as connection:
            inserted = await connection.execute(self._insert, _rows(unique))
            first = {(platform, delivery) for platform, delivery in inserted}
            await self._prune_now_and_then(connection, len(claims))
        results = []
        for claim in claims:  # a claim repeated within one batch is first only once
            results.append(claim in first)
            first.discard(claim)
        return results

    async def _prune_now_and_then(self, connection: AsyncConnection, count: int) -> None:
        self._claims_since_prune += count
        if self._claims_since_prune >= PRUNE_EVERY:
            self._claims_since_prune = 0
            cutoff = datetime.now(UTC) - KEEP_FOR
            await connection.execute(delete(DeliveryRow).where(DeliveryRow.created_at < cutoff))


def new_claims_insert(dialect: str) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING the rows that were new."""
    statement = insert_for(dialect, DeliveryRow.__table__).on_conflict_do_nothing()
    columns = DeliveryRow.__table__.c
    return statement.returning(columns.platform, columns.delivery_id)


def _rows(claims: list[Claim]) -> list[dict[str, object]]:
    now = datetime.now(UTC)
    return [{"platform": p, "delivery_id": d, "created_at": now} for p, d in claims]
