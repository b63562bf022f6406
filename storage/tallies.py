"""Frozen step tallies: written once at a reveal, read by every later view of the results."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.model.records import ChoicePair, FreeAnswerStats, StepTally, VoteCount
from storage.models import StepTallyRow
from storage.upsert import insert_for


def tally_payload(tally: StepTally) -> dict[str, Any]:
    """A tally as JSON-ready data."""
    return {
        "votes": [asdict(vote) for vote in tally.votes],
        "free": asdict(tally.free) if tally.free is not None else None,
        "pairs": [asdict(pair) for pair in tally.pairs],
    }


def tally_from_row(row: StepTallyRow) -> StepTally:
    """A tally read back from its row."""
    payload: dict[str, Any] = dict(row.payload)
    votes = tuple(VoteCount(**vote) for vote in payload.get("votes", []))
    free = FreeAnswerStats(**payload["free"]) if payload.get("free") else None
    pairs = tuple(ChoicePair(**pair) for pair in payload.get("pairs", []))
    return StepTally(row.participants, votes, free, pairs)


class TallyStore:
    """Saving and reading frozen tallies; the first reveal's tally wins."""

    sessions: async_sessionmaker[AsyncSession]
    statements: async_sessionmaker[AsyncSession]
    dialect: str

    async def save_tally(self, run_id: int, step_id: str, tally: StepTally) -> None:
        """Freeze a step's aggregates at its reveal (a second save changes nothing)."""
        values = {
            "run_id": run_id,
            "step_id": step_id,
            "participants": tally.participants,
            "payload": tally_payload(tally),
        }
        statement = insert_for(self.dialect, StepTallyRow).values(**values)
        async with self.sessions.begin() as session:
            await session.execute(statement.on_conflict_do_nothing())

    async def find_tally(self, run_id: int, step_id: str) -> StepTally | None:
        """A step's frozen aggregates, if it was revealed."""
        query = select(StepTallyRow).where(
            StepTallyRow.run_id == run_id, StepTallyRow.step_id == step_id
        )
        async with self.statements() as session:
            row = (await session.scalars(query)).first()
            return tally_from_row(row) if row else None
