"""forget-me after everything a member can do: no table or column keeps their id or name.

A member takes a live run with a delayed recall (a peer round on the way, where others quote
them by name and mention), answers the recall check days later, and starts an assignment.
Once they are forgotten, every stored value is read back, as the database has it.
"""

from __future__ import annotations

import pytest
from sqlalchemy import MetaData

from storage import SqlRunStore
from storage.models import Base
from tests.conftest import FakeClock
from tests.platforms.driver import Person, Platform
from tests.platforms.test_assigned import start
from tests.platforms.test_peer_round import RIGHT, ROUND, choose, say_why
from tests.platforms.test_recalls import DAY, LAST, RIGHT_LATER, answer_check, check_of
from tests.storage.traces import traces_of

pytestmark = pytest.mark.slow
"""A whole lesson, its recall and an assignment on each platform: spread through the run."""

FIRST_QUESTION = {"what-changed": "checkable-reward", "what-about-writing": "only-checkable"}


def quoting(fay: Person) -> list[str]:
    """Reasons others give that name or mention Fay, each way a platform writes one."""
    return [
        f"I side with <@{fay.id}> and <@!{fay.id}>: tests decide",
        f"As <@{fay.id}|{fay.name}> said, {fay.name} is right",
    ]


async def live_run_with_a_peer_round(lesson: Platform, fay: Person, others: list[Person]) -> None:
    """A live run with a recall in 3 days, to its end; at the peer round others quote Fay."""
    await lesson.command("start", options={"recall": "3d"})
    post = await lesson.wait(lambda: next(iter(lesson.posts()), None), what="the first step")
    while post.step != LAST:
        if post.step == ROUND.id:
            for member in (fay, *others):  # all right: no split, so no second vote
                await choose(lesson, member, post, RIGHT)
            await say_why(lesson, fay, post, "Code has tests, a eulogy has none")
            for member, reason in zip(others, quoting(fay), strict=True):
                await say_why(lesson, member, post, reason)
        for choice in [FIRST_QUESTION[str(post.step)]] if post.step in FIRST_QUESTION else []:
            for member in (fay, *others):
                await lesson.press(member, post, post.button(action="choose", arg=choice))
        post = await lesson.next_step()
    before = len(lesson.posts())
    await lesson.command("next")
    await lesson.post_after(before, "Finished")


async def test_forget_me_leaves_the_members_id_and_name_in_no_column_of_any_table(
    lesson: Platform, clock: FakeClock, store: SqlRunStore
) -> None:
    fay = lesson.member("Fayola")
    others = [lesson.member("Gideon"), lesson.member("Hester")]
    await live_run_with_a_peer_round(lesson, fay, others)
    clock.advance(3 * DAY + 60)
    await lesson.fire_timers()
    await lesson.wait(lambda: check_of(lesson, fay), what="Fay's recall check")
    await answer_check(lesson, fay, RIGHT_LATER)
    before = len(lesson.posts())
    await lesson.command("assign", options={"due": "3d"})
    await start(lesson, fay, await lesson.post_after(before, "Assignment"))
    assert "members.user_id" in await traces_of(store, fay.id)

    gone = await lesson.reply(await lesson.forget_me(fay))
    assert gone.private and "nothing stored here refers to you" in gone.text, gone.text
    assert await traces_of(store, fay.id) == []
    assert await traces_of(store, fay.name) == []
    assert "reasons.text" in await traces_of(store, "tests decide")  # others' reasons stay
    async with store.database.connect() as connection:
        reflected = MetaData()
        await connection.run_sync(reflected.reflect)
    assert set(Base.metadata.tables) <= set(reflected.tables)  # every model table was read
