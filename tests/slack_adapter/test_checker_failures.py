"""On Slack, the checker's trouble reaches the member privately: a second answer while the
first is checked, and a slow answer stopped so that another member's is graded."""

from __future__ import annotations

from bot.engine import LessonCatalog, LessonEngine, parse_address
from bot.verifier import Checker
from fakes.fake_slack import FakeSlack
from fakes.slack_driver import ALICE, BOB, step_number
from storage import SqlRunStore
from tests.conftest import SLOW_ANSWER, FakeClock
from tests.slack_adapter.conftest import bot_for, serving
from tests.waiting import wait_until

FREE_ANSWER_STEP = step_number("your-turn")


async def test_a_busy_checker_and_a_second_answer_get_private_replies_and_store_nothing(
    store: SqlRunStore,
    fair_checker: Checker,
    clock: FakeClock,
    fake_slack: FakeSlack,
    background_work: None,
) -> None:
    engine = LessonEngine(store, fair_checker, LessonCatalog(), clock)
    async with serving(bot_for(engine, fair_checker, fake_slack), fake_slack) as slack:
        await slack.start()
        card = await slack.go_to_step(FREE_ANSWER_STEP)
        view = await slack.open_answer_form(card)
        assert await slack.submit(view, SLOW_ANSWER, ALICE) == 200

        async def checking() -> bool:
            return fair_checker.idle_workers == 0

        await wait_until(checking, 30.0, "Alice's answer to be in the checker")
        assert await slack.submit(view, "3/4", ALICE) == 200
        await slack.wait_ephemeral(ALICE, "Your previous answer is still being checked.")
        assert await slack.submit(view, "3/4", BOB) == 200
        graded = await slack.wait_ephemeral(BOB, "Try 1:")
        assert "Reward *1* ✅" in graded.args["text"]
        await slack.wait_ephemeral(ALICE, "The checker is busy; try again in a moment.", 30.0)
        run_id = parse_address(slack.action(card, ":answer")).run_id
        assert await store.count_tries(run_id, "your-turn", ALICE) == 0
