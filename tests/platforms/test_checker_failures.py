"""The checker's trouble reaches the member privately: a second answer while the first is
checked, and a slow answer stopped so that another member's is graded."""

from __future__ import annotations

from bot.engine import LessonCatalog, LessonEngine
from bot.verifier import Checker
from storage import SqlRunStore
from tests.conftest import SLOW_ANSWER, FakeClock
from tests.platforms.driver import Platform
from tests.waiting import wait_until

RIGHT = "3/4"


async def test_a_busy_checker_and_a_second_answer_get_private_replies_and_store_nothing(
    platform: Platform, store: SqlRunStore, fair_checker: Checker, clock: FakeClock
) -> None:
    engine = LessonEngine(store, fair_checker, LessonCatalog(), clock)
    async with platform.running(engine):
        turn = await platform.reach("your-turn")
        ann, ben = platform.member("ann"), platform.member("ben")
        slow = await platform.send_answer(ann, turn, SLOW_ANSWER)

        async def checking() -> bool:
            return fair_checker.idle_workers == 0

        await wait_until(checking, 30.0, "Ann's answer to be in the checker")
        again = await platform.answer(ann, turn, RIGHT)
        assert again.private and again.text == "Your previous answer is still being checked."

        graded = await platform.answer(ben, turn, RIGHT)
        assert graded.private and "Try 1:" in graded.text, graded.text
        assert f"Reward {platform.bold('1')} ✅" in graded.text, graded.text
        busy = await platform.reply(slow, timeout=30.0)
        assert busy.private and busy.text == "The checker is busy; try again in a moment."
        assert await store.count_tries(turn.run, "your-turn", ann.id) == 0
