"""The More button on Discord: longer detail told privately, before and after moving on."""

from __future__ import annotations

from tests.discord_adapter.helpers import LessonDriver, button, buttons, step_id


async def test_more_answers_privately_and_still_works_after_moving_on(
    lesson: LessonDriver,
) -> None:
    fake = lesson.fake
    stages = await lesson.reach("three-stages")
    more = button(stages, label="More", action="more")
    before = len(lesson.messages())
    reply = await lesson.press(fake.member("ann"), stages, more)
    assert reply.ephemeral and "group relative policy optimization" in reply.content
    assert len(lesson.messages()) == before

    await lesson.next_step()
    closed = next(m for m in lesson.messages() if step_id(m) == "three-stages")
    states = {item["label"]: item["disabled"] for item in buttons(closed)}
    assert states == {"More": False, "Next": True}
    again = await lesson.press(fake.member("ben"), closed, more)
    assert again.ephemeral and "supervised fine-tuning" in again.content


async def test_a_question_shows_more_under_its_reveal(lesson: LessonDriver) -> None:
    exercise = await lesson.reach("be-the-checker")
    assert "more" not in [item["custom_id"].split(":")[3] for item in buttons(exercise)]
    before = len(lesson.messages())
    await lesson.command("reveal")
    results = await lesson.reveal_after(before)
    reply = await lesson.press(lesson.fake.member("ann"), results, button(results, "More"))
    assert reply.ephemeral and "takes 1 hour" in reply.content


async def test_a_hand_made_more_on_an_open_question_is_refused_privately(
    lesson: LessonDriver,
) -> None:
    exercise = await lesson.reach("be-the-checker")
    forged = ":".join([*button(exercise, action="up").split(":")[:3], "more"])
    before = len(lesson.messages())
    reply = await lesson.press(lesson.fake.member("ann"), exercise, forged)
    assert reply.ephemeral and "opens with its reveal" in reply.content
    assert "takes 1 hour" not in reply.content and len(lesson.messages()) == before
