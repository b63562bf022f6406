"""Answers written in bulk: the rows `record_vote` and `save_reason` write, for many members."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from benchmarks.lesson_setup import OpenQuestion, choice_for, member
from bot.model import Member
from storage.models import MemberRow, ReasonRow, RunRow, VoteRow

FIRST_ANSWER_KIND = "choice"
FIRST_VOTE = 1


async def seed_choices(
    database: AsyncEngine, question: OpenQuestion, first: int, count: int
) -> None:
    """Members `first` to `first + count - 1` each choose once at an open question."""
    people = [member(n) for n in range(first, first + count)]
    await seed_people_choices(database, question, people, first)


async def seed_people_choices(
    database: AsyncEngine, question: OpenQuestion, people: Sequence[Member], first: int = 0
) -> None:
    """Each of `people` chooses once at an open question: member n, `choice_for(question, n)`.

    The people are members `first`, `first + 1` and on.
    """
    async with database.begin() as connection:
        ids = await _add_members(connection, question.run_id, people)
        votes = [
            {"run_id": question.run_id, "step_id": question.step.id, "kind": FIRST_ANSWER_KIND,
             "member_id": ids[person.user_id], "value": choice_for(question, n)}
            for n, person in enumerate(people, start=first)
        ]
        await connection.execute(insert(VoteRow), votes)


async def seed_reasons(
    database: AsyncEngine, run_id: int, step_id: str, choices: Sequence[str], count: int
) -> None:
    """Members 0 to `count - 1` each give a first answer with a reason at a peer round.

    Member n chooses `choices[n % len(choices)]`, as `save_reason` stores it after the answer.
    """
    numbers = range(count)
    async with database.begin() as connection:
        ids = await _add_members(connection, run_id, [member(n) for n in numbers])
        chosen = [(ids[member(n).user_id], choices[n % len(choices)]) for n in numbers]
        votes = [{"run_id": run_id, "step_id": step_id, "kind": FIRST_ANSWER_KIND,
                  "member_id": member_id, "value": choice} for member_id, choice in chosen]
        await connection.execute(insert(VoteRow), votes)
        reasons = [{"run_id": run_id, "step_id": step_id, "member_id": member_id,
                    "vote": FIRST_VOTE, "choice_id": choice,
                    "text": f"Reason number {member_id} for {choice}, in one sentence."}
                   for member_id, choice in chosen]
        await connection.execute(insert(ReasonRow), reasons)


async def _add_members(
    connection: AsyncConnection, run_id: int, people: Sequence[Member]
) -> dict[str, int]:
    """Insert the members in the run's workspace; their ids by user id."""
    where = select(RunRow.platform, RunRow.workspace_id).where(RunRow.id == run_id)
    platform, workspace = (await connection.execute(where)).one()
    rows = [{"platform": platform, "workspace_id": workspace, "user_id": person.user_id,
             "display_name": person.name} for person in people]
    await connection.execute(insert(MemberRow), rows)
    users = [person.user_id for person in people]
    query = select(MemberRow.user_id, MemberRow.id).where(MemberRow.user_id.in_(users))
    return {user: id_ for user, id_ in await connection.execute(query)}
