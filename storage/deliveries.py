"""Deliveries already handled, shared by every process: a platform retry is handled once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage.models import DeliveryRow
from storage.upsert import insert_for

KEEP_FOR = timedelta(days=1)
PRUNE_EVERY = 1000


class DeliveryStore:
    """Claims delivery ids with a unique constraint; old claims are pruned now and then."""

    sessions: async_sessionmaker[AsyncSession]
    dialect: str
    _claims_since_prune: int = 0

    async def claim_delivery(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery id; False if any process saw it before."""
        values = {"platform": platform, "delivery_id": delivery_id, "created_at": datetime.now(UTC)}
        statement = insert_for(self.dialect, DeliveryRow).values(**values)
        async with self.sessions.begin() as session:
            result = await session.execute(statement.on_conflict_do_nothing())
            await self._prune_now_and_then(session)
        return bool(result.rowcount)  # type: ignore[attr-defined]

    async def _prune_now_and_then(self, session: AsyncSession) -> None:
        self._claims_since_prune += 1
        if self._claims_since_prune >= PRUNE_EVERY:
            self._claims_since_prune = 0
            cutoff = datetime.now(UTC) - KEEP_FOR
            await session.execute(delete(DeliveryRow).where(DeliveryRow.created_at < cutoff))
