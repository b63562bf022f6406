"""Delivery claims older than a day are pruned when a bot starts and then every hour."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from bot.process.runtime import open_runtime
from bot.process.upkeep import prune_forever
from bot.settings import Settings
from storage import SqlRunStore
from storage.models import DeliveryRow
from tests.waiting import wait_until

OLD = "trigger:two-days-ago"
RECENT = "trigger:an-hour-ago"


async def claim_aged(store: SqlRunStore, key: str, age: timedelta) -> None:
    """A delivery claimed `age` ago."""
    assert await store.claim_delivery("slack", key)
    aged = update(DeliveryRow).where(DeliveryRow.delivery_id == key)
    async with store.database.begin() as connection:
        await connection.execute(aged.values(created_at=datetime.now(UTC) - age))


async def claimed(store: SqlRunStore, key: str) -> bool:
    """Whether a claim on `key` is still stored."""
    query = select(DeliveryRow.id).where(DeliveryRow.delivery_id == key)
    async with store.sessions() as session:
        return (await session.execute(query)).first() is not None


async def test_claims_older_than_a_day_are_pruned_and_newer_ones_kept(store: SqlRunStore) -> None:
    await claim_aged(store, OLD, timedelta(days=2))
    await claim_aged(store, RECENT, timedelta(hours=1))
    assert await store.prune_deliveries(datetime.now(UTC)) == 1
    assert not await claimed(store, OLD) and await claimed(store, RECENT)
    assert not await store.claim_delivery("slack", RECENT)


async def test_a_starting_bot_prunes_old_claims_however_few_there_are(
    store: SqlRunStore, database_url: str
) -> None:
    await claim_aged(store, OLD, timedelta(days=2))
    await claim_aged(store, RECENT, timedelta(hours=1))
    async with open_runtime(Settings(database_url=database_url)):
        await wait_until(lambda: _gone(store, OLD), timeout=10, what="the old claim pruned")
    assert await claimed(store, RECENT)


async def test_pruning_runs_again_after_its_interval() -> None:
    rounds: list[datetime] = []
    third = asyncio.Event()

    async def prune(now: datetime) -> int:
        rounds.append(now)
        if len(rounds) == 3:
            third.set()
        return 0

    pruning = asyncio.create_task(prune_forever(prune, every=0.01))
    async with asyncio.timeout(10):
        await third.wait()
    pruning.cancel()
    assert rounds == sorted(rounds)


async def _gone(store: SqlRunStore, key: str) -> bool:
    return not await claimed(store, key)
