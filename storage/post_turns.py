"""Post turns: which process may move a run and post to its channel, held in the runs table.

A turn is a lease: its holder writes its name and an expiry on the run's row, renews the
expiry while it works, and clears both when done. A holder that dies frees the turn when
its lease lapses. The claim is one conditional UPDATE, so two processes never both win.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage.models import RunRow


class PostTurnStore:
    """Claiming, renewing and releasing a run's post turn."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]

    async def claim_post_turn(
        self, run_id: int, holder: str, seconds: float, replacing: str | None = None
    ) -> bool:
        """Take (or renew) the run's turn for `seconds`; False while another holder has it.

        `replacing` names a holder known to be gone, whose turn is taken over at once.
        """
        now = datetime.now(UTC)
        free = [RunRow.post_holder.is_(None), RunRow.post_holder == holder, RunRow.post_until < now]
        if replacing is not None:
            free.append(RunRow.post_holder == replacing)
        statement = (
            update(RunRow)
            .where(RunRow.id == run_id, or_(*free))
            .values(post_holder=holder, post_until=now + timedelta(seconds=seconds))
        )
        async with self.sessions.begin() as session:
            claimed = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return bool(claimed)

    async def post_turn_holder(self, run_id: int) -> str | None:
        """Who holds the run's turn now, if anyone (whether or not the lease has lapsed)."""
        query = select(RunRow.post_holder).where(RunRow.id == run_id)
        async with self.statements() as session:
            return (await session.execute(query)).scalar_one_or_none()

    async def release_post_turn(self, run_id: int, holder: str) -> None:
        """Give the run's turn back, if `holder` still has it."""
        statement = (
            update(RunRow)
            .where(RunRow.id == run_id, RunRow.post_holder == holder)
            .values(post_holder=None, post_until=None)
        )
        async with self.sessions.begin() as session:
            await session.execute(statement)
