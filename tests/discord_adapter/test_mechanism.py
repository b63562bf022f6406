"""The mechanism, live, on Discord: a toy trained on this channel's votes, the GRPO group."""

from __future__ import annotations

from tests.discord_adapter.helpers import LessonDriver, button, step_id


def text_of(message: dict[str, object]) -> str:
    embeds = message["embeds"]
    assert isinstance(embeds, list)
    return "\n".join(f"{e.get('title', '')}\n{e.get('description', '')}" for e in embeds)


async def test_the_toy_learns_what_this_channel_liked(lesson: LessonDriver) -> None:
    exercise = await lesson.reach("be-the-checker")
    for name in ("ann", "ben", "cat"):
        member = lesson.fake.member(name)
        await lesson.press(member, exercise, button(exercise, action="up", arg="polished"))
    await lesson.command("reveal")
    shown = await lesson.next_step()
    assert step_id(shown) == "train-on-votes"
    text = text_of(shown)
    assert "**Thumbs-up:** it ends up picking **The polished one**" in text
    assert "**Checker:** it ends up picking **The second look**" in text
    assert "The polished one 100%, others 0%" in text and "Assumptions:" in text
    assert "trained on this channel's votes" in text and "not a real language model" in text
    (upload,) = lesson.fake.uploads[int(shown["id"])]
    assert upload.data.startswith(b"\x89PNG\r\n\x1a\n")


async def test_the_free_answer_reveal_shows_the_channel_as_a_grpo_group(
    lesson: LessonDriver,
) -> None:
    question = await lesson.reach("your-turn")
    answers = (("xavi", "3/4"), ("yuki", "2/3"), ("zora", "0.75"), ("wren", "1/2"))
    for name, answer in answers:
        member = lesson.fake.member(name)
        sent = await lesson.fake.submit_form(
            member, button(question, action="answer"), {"answer": answer}, question
        )
        await lesson.fake.private_reply(sent)
    before = len(lesson.messages())
    await lesson.command("reveal")
    results = await lesson.reveal_after(before)
    text = text_of(results)
    assert "GRPO group" in text and "**2 of 4** earned reward 1" in text
    group = text.lower().split("grpo group")[1]
    assert not any(name in group for name, _ in answers)
