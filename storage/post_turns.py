"""Post turns: which process may move a run and post to its channel, held in the runs table.

A turn is a lease: its holder writes its name and an expiry on the run's row, renews the
expiry while it works, and clears both when done. A holder that dies frees the turn when
its lease lapses. The claim is one conditional UPDATE, so two processes never both win.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import or_, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage.models import RunRow


class PostTurnStore:
    """Claiming, renewing and releasing a run's post turn."""

    sessions: async_sessionmaker[AsyncSession]

    async def claim_post_turn(self, run_id: int, holder: str, seconds: float) -> bool:
        """Take (or renew) the run's turn for `seconds`; False while another holder has it."""
        now = datetime.now(UTC)
        statement = (
            update(RunRow)
            .where(
                RunRow.id == run_id,
                or_(
                    RunRow.post_holder.is_(None),
                    RunRow.post_holder == holder,
                    RunRow.post_until < now,
                ),
            )
            .values(post_holder=holder, post_until=now + timedelta(seconds=seconds))
        )
        async with self.sessions.begin() as session:
            claimed = (await session.execute(statement)).rowcount  # type: ignore[attr-defined]
        return bool(claimed)

    async def release_post_turn(self, run_id: int, holder: str) -> None:
        """Give the run's turn back, if `holder` still has it."""
        statement = (
            update(RunRow)
            .where(RunRow.id == run_id, RunRow.post_holder == holder)
            .values(post_holder=None, post_until=None)
        )
        async with self.sessions.begin() as session:
            await session.execute(statement)
