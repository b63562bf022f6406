"""Times bot processes read from the database, moved as if they had come.

A bot in a process of its own keeps the real clock; a test that needs a stored time to pass
moves the time instead of waiting for it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import update

from storage import SqlRunStore
from storage.models import RunRow


async def set_run_times(store: SqlRunStore, run_id: int, **values: object) -> None:
    """Store these columns of the run (its due time, reminder, timer, post turn…) as given."""
    async with store.database.begin() as connection:
        await connection.execute(update(RunRow).where(RunRow.id == run_id).values(**values))


async def timer_due_now(store: SqlRunStore, run_id: int) -> None:
    """The run's timer ends now: the next tick of a bot's timer loop fires it."""
    await set_run_times(store, run_id, deadline=datetime.now(UTC))
