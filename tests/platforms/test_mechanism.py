"""The mechanism, live: a toy trained on this channel's votes, and the channel as a GRPO group."""

from __future__ import annotations

from tests.platforms.driver import Platform
from tests.platforms.views import PNG_SIGNATURE


async def test_the_toy_learns_what_this_channel_liked(lesson: Platform) -> None:
    exercise = await lesson.reach("be-the-checker")
    for name in ("ann", "ben", "cat"):
        polished = exercise.button(action="up", arg="polished")
        reply = await lesson.press(lesson.member(name), exercise, polished)
        assert reply.private and "👍" in reply.text, reply.text
    await lesson.command("reveal")
    shown = await lesson.next_step()
    assert shown.step == "train-on-votes"
    text, bold = shown.text, lesson.bold
    assert "Train a tiny model" in text
    assert f"{bold('Thumbs-up:')} it ends up picking {bold('The polished one')}" in text
    assert f"{bold('Checker:')} it ends up picking {bold('The second look')}" in text
    assert "trained on this channel's votes" in text and "not a real language model" in text
    assert "Assumptions:" not in text
    told = await lesson.press(lesson.member("ann"), shown, shown.button("More", action="more"))
    assert told.private and "How it was trained" in told.text
    assert "The polished one 100%, others 0%" in told.text and "Assumptions:" in told.text
    chart = await lesson.chart(shown)
    assert chart.png.startswith(PNG_SIGNATURE) and "Toy softmax policy" in chart.words


async def test_the_free_answer_reveal_shows_the_channel_as_a_grpo_group(lesson: Platform) -> None:
    question = await lesson.reach("your-turn")
    answers = (("xavi", "3/4"), ("yuki", "2/3"), ("zora", "0.75"), ("wren", "1/2"))
    members = [lesson.member(name) for name, _ in answers]
    for member, (_, answer) in zip(members, answers, strict=True):
        reply = await lesson.answer(member, question, answer)
        assert reply.private and "Try 1:" in reply.text, reply.text
    before = len(lesson.posts())
    await lesson.command("reveal")
    results = await lesson.post_after(before, "Results: Your turn")
    text = results.text
    assert "GRPO group" in text and "2 of 4 first tries earned reward 1" in text
    told = await lesson.press(members[0], results, results.button("More", action="more"))
    assert told.private and f"{lesson.bold('2 of 4')} earned reward 1" in told.text
    shown = text.lower()
    assert not any(m.name.lower() in shown or m.id.lower() in shown for m in members)
