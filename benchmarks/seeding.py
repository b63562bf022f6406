"""Answers written in bulk: the rows `record_vote` writes, for many members at once."""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from benchmarks.lesson_setup import OpenQuestion, choice_for, member
from storage.models import MemberRow, RunRow, VoteRow


async def seed_choices(
    database: AsyncEngine, question: OpenQuestion, first: int, count: int
) -> None:
    """Members `first` to `first + count - 1` each choose once at an open question."""
    numbers = range(first, first + count)
    async with database.begin() as connection:
        ids = await _add_members(connection, question.run_id, numbers)
        votes = [
            {"run_id": question.run_id, "step_id": question.step.id, "kind": "choice",
             "member_id": ids[member(n).user_id], "value": choice_for(question, n)}
            for n in numbers
        ]
        await connection.execute(insert(VoteRow), votes)


async def _add_members(connection: AsyncConnection, run_id: int, numbers: range) -> dict[str, int]:
    """Insert the members in the run's workspace; their ids by user id."""
    where = select(RunRow.platform, RunRow.workspace_id).where(RunRow.id == run_id)
    platform, workspace = (await connection.execute(where)).one()
    people = [member(n) for n in numbers]
    rows = [{"platform": platform, "workspace_id": workspace, "user_id": person.user_id,
             "display_name": person.name} for person in people]
    await connection.execute(insert(MemberRow), rows)
    users = [person.user_id for person in people]
    query = select(MemberRow.user_id, MemberRow.id).where(MemberRow.user_id.in_(users))
    return {user: id_ for user, id_ in await connection.execute(query)}
