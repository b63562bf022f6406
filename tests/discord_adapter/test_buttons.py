"""Lesson buttons are routed by their custom_id: discord.py keeps no view per posted message."""

from __future__ import annotations

from fakes.fake_discord import FakeDiscord
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, button, buttons, step_id


async def test_posted_steps_leave_no_views_in_memory_and_their_buttons_still_work(
    fake: FakeDiscord, launch: Launch
) -> None:
    bot = await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach("what-changed")
    assert bot.persistent_views == []

    reply = await lesson.press(fake.member("ann"), question, button(question, arg="more-text"))
    assert reply.ephemeral and "You chose" in reply.content
    assert bot.persistent_views == []


async def test_a_button_of_another_bot_is_left_alone(fake: FakeDiscord, launch: Launch) -> None:
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach("what-changed")
    sent = await fake.click(fake.member("ann"), question, "poll:vote:3")
    other = await fake.click(fake.member("ann"), question, button(question, arg="more-text"))
    await fake.wait_until(lambda: fake.ack_delay(other) is not None, what="the lesson click")
    assert fake.ack_delay(sent) is None and fake.callback_attempts(sent) == []


async def test_a_used_next_button_moves_on_and_is_greyed_out(lesson: LessonDriver) -> None:
    question = await lesson.reach("what-changed")
    before = len(lesson.messages())
    await lesson.press(lesson.host, question, button(question, action="reveal"))
    results = await lesson.reveal_after(before)

    posted = len(lesson.messages())
    moved = await lesson.press(lesson.host, results, button(results, action="next"))
    assert moved.ephemeral and moved.content == "Moved on."
    assert step_id(await lesson.step_after(posted)) == "three-stages"
    await lesson.fake.wait_until(lambda: all(b["disabled"] for b in buttons(results)))
