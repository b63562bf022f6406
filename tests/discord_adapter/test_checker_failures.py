"""On Discord, the checker's trouble reaches the member privately: a second answer while the
first is checked, and a slow answer stopped so that another member's is graded."""

from __future__ import annotations

from bot.discord_adapter import LessonBot
from bot.engine import LessonCatalog, LessonEngine
from bot.verifier import Checker
from fakes.fake_discord import FakeDiscord
from storage import SqlRunStore
from tests.conftest import SLOW_ANSWER, FakeClock
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, button, run_of
from tests.waiting import wait_until

RIGHT = {"answer": "3/4"}


async def fair_bot(
    launch: Launch, store: SqlRunStore, fair_checker: Checker, clock: FakeClock
) -> LessonBot:
    """The bot on an engine whose checker has one worker and gives slow checks short turns."""
    return await launch(LessonEngine(store, fair_checker, LessonCatalog(), clock))


async def test_a_busy_checker_and_a_second_answer_get_private_replies_and_store_nothing(
    fake: FakeDiscord,
    launch: Launch,
    store: SqlRunStore,
    fair_checker: Checker,
    clock: FakeClock,
) -> None:
    await fair_bot(launch, store, fair_checker, clock)
    lesson = LessonDriver(fake, fake.host("hazel"))
    turn = await lesson.reach("your-turn")
    answer_id = button(turn, action="answer")
    ann, ben = fake.member("ann"), fake.member("ben")

    slow = await fake.submit_form(ann, answer_id, {"answer": SLOW_ANSWER}, turn)

    async def checking() -> bool:
        return fair_checker.idle_workers == 0

    await wait_until(checking, 30.0, "Ann's answer to be in the checker")
    again = await fake.private_reply(await fake.submit_form(ann, answer_id, RIGHT, turn))
    assert again.ephemeral and again.content == "Your previous answer is still being checked."

    graded = await fake.private_reply(await fake.submit_form(ben, answer_id, RIGHT, turn))
    assert graded.ephemeral and "Try 1" in graded.content and "Reward **1**" in graded.content
    busy = await fake.private_reply(slow, timeout=30.0)
    assert busy.ephemeral and busy.content == "The checker is busy; try again in a moment."
    assert await store.count_tries(run_of(turn), "your-turn", str(ann.id)) == 0
