"""A restart in the middle of a step: old buttons keep working and earlier answers stay."""

from __future__ import annotations

from bot.engine import LessonEngine
from fakes.fake_discord import FakeDiscord
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, button


async def test_old_buttons_work_after_a_restart(
    fake: FakeDiscord, launch: Launch, fresh_engine: LessonEngine
) -> None:
    first_process = await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach("what-changed")
    ann, ben = fake.member("ann"), fake.member("ben")
    await lesson.press(ann, question, button(question, arg="checkable-reward"))

    await first_process.close()
    await launch(on=fresh_engine)

    joined = await lesson.press(ben, question, button(question, arg="bigger-model"))
    assert joined.ephemeral and "You chose" in joined.content
    again = await lesson.press(ann, question, button(question, arg="more-text"))
    assert "(was A new training stage" in again.content

    before = len(lesson.messages())
    await lesson.press(lesson.host, question, button(question, action="reveal"))
    results = await lesson.reveal_after(before)
    assert "**2 answered**" in results["embeds"][0]["description"]


async def test_a_form_opened_before_a_restart_is_graded_after_it(
    fake: FakeDiscord, launch: Launch, fresh_engine: LessonEngine
) -> None:
    first_process = await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    turn = await lesson.reach("your-turn")
    ann = fake.member("ann")
    answer_id = button(turn, action="answer")
    opened = await fake.click(ann, turn, answer_id)
    await fake.wait_until(lambda: fake.callback_of(opened))

    await first_process.close()
    await launch(on=fresh_engine)

    submitted = await fake.submit_form(ann, answer_id, {"answer": "3/4"}, turn)
    graded = await fake.private_reply(submitted)
    assert graded.ephemeral and "Try 1" in graded.content and "Reward **1**" in graded.content
