"""Times bot processes read from the database, brought to now as if they had come.

A bot in a process of its own keeps the real clock; a test that needs a stored time to pass
moves the time instead of waiting for it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import update

from storage import SqlRunStore
from storage.models import RunRow


async def timer_due_now(store: SqlRunStore, run_id: int) -> None:
    """The run's timer ends now: the next tick of a bot's timer loop fires it."""
    async with store.database.begin() as connection:
        await connection.execute(
            update(RunRow).where(RunRow.id == run_id).values(deadline=datetime.now(UTC))
        )
