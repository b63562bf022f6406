"""Forgetting a member takes their delayed recall checks, answers and stops, and counts them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select

from bot.model import Member, NewRun, Phase, Position, RunState
from storage import SqlRunStore
from storage.models import MemberRow, RecallAnswerRow, RecallCheckRow, RecallStopRow
from tests.storage.test_repository import HOST, PLACE

ANN, BEN = Member("U1", "Ann"), Member("U2", "Ben")
DAY = timedelta(days=1)
ENDED = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
RECALL_TABLES = (RecallCheckRow, RecallAnswerRow, RecallStopRow)


async def checks_answered(store: SqlRunStore) -> int:
    """A run that ended a day ago with a one-day recall: Ann answered two questions and
    stopped the checks, Ben answered one."""
    new = NewRun(PLACE, "rlvr", 1, HOST, None, None, recall_plan=(int(DAY.total_seconds()),))
    run = await store.create_run(new)
    for member in (ANN, BEN):
        await store.record_vote(run.id, "what-changed", member, "choice", "checkable-reward")
    ended = await store.move_run(
        run.id, run.position, Position(run.step_index, Phase.OPEN), RunState.FINISHED, None,
        ENDED,
    )
    assert ended is not None and await store.plan_checks(ended, DAY) == 2
    now = ENDED + DAY
    for check in await store.due_checks(now, 10):
        await store.check_sent(check.id, now, reached=True)
    for member, questions in ((ANN, ("puzzle-recipe", "one-round-of-rl")), (BEN, ("a",))):
        check = await store.open_check(run.id, member.user_id, now)
        assert check is not None
        for question in questions:
            await store.save_recall_answer(check.id, question, "x", True, now)
    assert await store.stop_recalls(run.id, ANN.user_id, now)
    return run.id


async def rows_in(store: SqlRunStore) -> dict[str, int]:
    """How many rows each recall table holds that belong to members."""
    async with store.sessions() as session:
        return {
            table.__tablename__: (await session.execute(select(func.count()).select_from(table)))
            .scalar_one()
            for table in RECALL_TABLES
        }


async def test_forgetting_a_member_removes_their_checks_answers_and_stops(
    store: SqlRunStore,
) -> None:
    run_id = await checks_answered(store)
    everything = {"recall_checks": 2, "recall_answers": 3, "recall_stops": 1}
    assert await rows_in(store) == everything

    preview = await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id, dry_run=True)
    assert (preview.recall_checks, preview.recall_answers, preview.recall_stops) == (1, 2, 1)
    assert preview.answers == 3  # Ann's choice and her two recall answers
    assert await rows_in(store) == everything

    report = await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id)
    assert report == preview
    assert await rows_in(store) == {"recall_checks": 1, "recall_answers": 1, "recall_stops": 0}
    assert [a.question_id for a in await store.later_answers(run_id, 1)] == ["a"]
    assert await store.open_check(run_id, ANN.user_id, ENDED + DAY) is None
    again = await store.forget_member(PLACE.platform, PLACE.workspace, ANN.user_id)
    assert not again.anything


async def test_a_member_row_deleted_takes_their_recall_rows_along(store: SqlRunStore) -> None:
    """The foreign keys cascade, on SQLite and PostgreSQL alike, whatever deletes the member."""
    await checks_answered(store)
    async with store.sessions.begin() as session:
        await session.execute(delete(MemberRow).where(MemberRow.user_id == ANN.user_id))
    assert await rows_in(store) == {"recall_checks": 1, "recall_answers": 1, "recall_stops": 0}
