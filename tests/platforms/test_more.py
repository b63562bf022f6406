"""The More button: a step's longer detail, told only to the member who asked."""

from __future__ import annotations

from bot.engine import Action
from tests.platforms.driver import Platform


async def test_more_answers_privately_and_still_works_after_moving_on(lesson: Platform) -> None:
    ann, ben = lesson.member("ann"), lesson.member("ben")
    stages = await lesson.reach("three-stages")
    more = stages.button(label="More", action="more")
    before = len(lesson.posts())
    reply = await lesson.press(ann, stages, more)
    assert reply.private and "SFT is supervised fine-tuning" in reply.text
    assert "group relative policy optimization" in reply.text
    assert len(lesson.posts()) == before and lesson.told(ben) == []

    await lesson.next_step()
    closed = {"More": True, "Next": False} if lesson.keeps_closed_buttons else {}
    await lesson.wait(lambda: stages.states() == closed, what=f"the step closed to {closed}")
    again = await lesson.press(ben, stages, more)  # where it is gone, as an older client has it
    assert again.private and "supervised fine-tuning" in again.text


async def test_a_question_shows_more_under_its_reveal(lesson: Platform) -> None:
    exercise = await lesson.reach("be-the-checker")
    assert "more" not in [item.target.action for item in exercise.buttons]
    before = len(lesson.posts())
    await lesson.command("reveal")
    results = await lesson.post_after(before, "Results: You're the checker")
    more = results.button(label="More", action="more")
    reply = await lesson.press(lesson.member("ann"), results, more)
    assert reply.private and f"{lesson.bold('The thorough one')} slipped" in reply.text
    assert "takes 1 hour" in reply.text


async def test_a_hand_made_more_on_an_open_question_is_refused_privately(
    lesson: Platform,
) -> None:
    exercise = await lesson.reach("be-the-checker")
    forged = exercise.address(Action.MORE)
    before = len(lesson.posts())
    reply = await lesson.press(lesson.member("ann"), exercise, forged)
    assert reply.private and "opens with its reveal" in reply.text
    assert "takes 1 hour" not in reply.text and len(lesson.posts()) == before
