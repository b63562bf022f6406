"""The free-answer problem: the Answer button opens a form, graded privately, with retries."""

from __future__ import annotations

from typing import Any

from bot.discord_adapter.forms import answer_value
from tests.discord_adapter.helpers import LessonDriver, button


def text_inputs(form: dict[str, Any]) -> list[dict[str, Any]]:
    """The text inputs of a form, in rows or in labels."""
    found = []
    for component in form["components"]:
        for child in component.get("components") or [component.get("component", {})]:
            if child.get("type") == 4:
                found.append(child)
    return found


async def test_answer_form_grades_privately_and_allows_retries(lesson: LessonDriver) -> None:
    fake = lesson.fake
    turn = await lesson.reach("your-turn")
    ann = fake.member("ann")
    answer_id = button(turn, action="answer")

    sent = await fake.click(ann, turn, answer_id)
    opened = await fake.wait_until(lambda: fake.callback_of(sent))
    assert opened.body["type"] == 9
    form = opened.body["data"]
    assert form["custom_id"] == answer_id and len(form["title"]) <= 45
    (field,) = text_inputs(form)
    assert field["custom_id"] == "answer" and field["max_length"] == 200

    wrong = await fake.private_reply(
        await fake.submit_form(ann, answer_id, {"answer": "2/3"}, turn)
    )
    assert wrong.deferred and wrong.ephemeral
    assert "Try 1" in wrong.content and "Reward **0**" in wrong.content
    assert "3/4" not in wrong.content

    right = await fake.private_reply(
        await fake.submit_form(ann, answer_id, {"answer": "0.75"}, turn)
    )
    assert right.ephemeral and "Try 2" in right.content and "Reward **1**" in right.content

    await fake.wait_until(lambda: "1 answered" in turn["content"], what="the live counter")


async def test_the_form_refuses_once_the_question_is_revealed(lesson: LessonDriver) -> None:
    fake = lesson.fake
    turn = await lesson.reach("your-turn")
    answer_id = button(turn, action="answer")
    await lesson.command("reveal")
    reply = await lesson.press(fake.member("ann"), turn, answer_id)
    assert reply.response_type == 4 and reply.ephemeral and "revealed" in reply.content
    late = await fake.submit_form(fake.member("ben"), answer_id, {"answer": "3/4"}, turn)
    assert "revealed" in (await fake.private_reply(late)).content


def test_the_answer_is_read_from_rows_and_from_labels() -> None:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "answer", "value": "3/4"}]}]
    labels = [{"type": 18, "component": {"type": 4, "custom_id": "answer", "value": "0.75"}}]
    assert answer_value(rows) == "3/4"
    assert answer_value(labels) == "0.75"
    assert answer_value([]) == ""


async def test_answers_past_the_lessons_try_cap_are_refused_and_not_graded(
    lesson: LessonDriver,
) -> None:
    fake = lesson.fake
    turn = await lesson.reach("your-turn")
    ann = fake.member("ann")
    answer_id = button(turn, action="answer")
    for number in range(1, 6):
        reply = await fake.private_reply(
            await fake.submit_form(ann, answer_id, {"answer": str(number + 10)}, turn)
        )
        assert f"Try {number}:" in reply.content
    assert "That was your last try" in reply.content
    refused = await fake.private_reply(
        await fake.submit_form(ann, answer_id, {"answer": "3/4"}, turn)
    )
    assert refused.ephemeral and "You have used your 5 tries at this problem" in refused.content
    assert "Reward" not in refused.content
