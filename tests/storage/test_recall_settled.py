"""Checks never to send are settled, so the timer loop's search for due checks skips them."""

from __future__ import annotations

from bot.model import Member, NewRun, Phase, Position, RunState
from storage import SqlRunStore
from tests.storage.test_recall_forget import DAY, ENDED, HOST, PLACE

ANN, BEN, CY, DEE = (Member(f"U{n}", name) for n, name in enumerate(("Ann", "Ben", "Cy", "Dee")))


async def four_checks_due(store: SqlRunStore) -> int:
    """A run that ended a day ago with a one-day recall: four members' checks are due."""
    new = NewRun(PLACE, "rlvr", 1, HOST, None, None, recall_plan=(int(DAY.total_seconds()),))
    run = await store.create_run(new)
    for member in (ANN, BEN, CY, DEE):
        await store.record_vote(run.id, "what-changed", member, "choice", "checkable-reward")
    ended = await store.move_run(
        run.id, run.position, Position(run.step_index, Phase.OPEN), RunState.FINISHED, None,
        ENDED,
    )
    assert ended is not None and await store.plan_checks(ended, DAY) == 4
    return run.id


async def test_unreachable_stopped_and_passed_checks_are_settled_and_never_listed(
    store: SqlRunStore,
) -> None:
    run_id = await four_checks_due(store)
    now = ENDED + DAY
    due = {check.user_id: check for check in await store.due_checks(now, 10)}
    await store.check_sent(due[ANN.user_id].id, now, reached=False)
    await store.check_sent(due[DEE.user_id].id, now, reached=True)
    assert await store.stop_recalls(run_id, BEN.user_id, now)
    assert await store.settle_checks(now) == 1  # Ben's; Ann's and Dee's were settled as noted
    assert [check.user_id for check in await store.due_checks(now, 10)] == [CY.user_id]
    assert await store.settle_checks(now) == 0
    closed = now + DAY
    assert await store.settle_checks(closed) == 1  # Cy's window passed
    assert await store.due_checks(closed, 10) == []
    assert await store.claim_checks([due[CY.user_id].id], "bot", now, 60) == set()


async def test_checks_are_claimed_together_except_those_sent_or_held_by_another(
    store: SqlRunStore,
) -> None:
    await four_checks_due(store)
    now = ENDED + DAY
    due = {check.user_id: check.id for check in await store.due_checks(now, 10)}
    await store.check_sent(due[ANN.user_id], now, reached=True)
    assert await store.claim_checks([due[BEN.user_id]], "other", now, 60) == {due[BEN.user_id]}
    everyone = list(due.values())
    assert await store.claim_checks(everyone, "bot", now, 60) == {due[CY.user_id], due[DEE.user_id]}
    assert await store.claim_checks(everyone, "next", now, 60, replacing=["bot"]) == {
        due[CY.user_id], due[DEE.user_id]
    }
    lapsed = now + DAY / 2
    assert await store.claim_checks(everyone, "late", lapsed, 60) == {
        due[BEN.user_id], due[CY.user_id], due[DEE.user_id]
    }
