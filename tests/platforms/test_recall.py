"""The lesson's recall step: the channel's before and after, in counts, never names."""

from __future__ import annotations

from tests.platforms.driver import Person, Platform, choice_labels
from tests.platforms.views import Post

RIGHT, WRONG, OTHER = "checkable-reward", "bigger-model", "more-text"


async def choose(lesson: Platform, member: Person, question: Post, choice: str) -> None:
    """A member picks a choice and is told privately which one."""
    assert question.step is not None
    label = choice_labels(question.step)[choice]
    reply = await lesson.press(member, question, question.button(arg=choice))
    assert reply.private and f"You chose {lesson.bold(label)}" in reply.text, reply.text


async def test_the_recall_reveal_shows_who_moved_held_and_left(lesson: Platform) -> None:
    members = [lesson.member(name) for name in ("Annika", "Benedikt", "Cyrano", "Delphine")]
    ann, ben, cy, dee = members
    first = await lesson.reach("what-changed")
    for member, choice in ((ann, WRONG), (ben, RIGHT), (cy, RIGHT), (dee, WRONG)):
        await choose(lesson, member, first, choice)
    again = await lesson.reach_from(first, "what-changed-again")
    assert "Same brain, a year later: again" in again.text
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, OTHER)):
        await choose(lesson, member, again, choice)

    before = len(lesson.posts())
    await lesson.click(lesson.host, again, again.button(action="reveal"))
    reveal = await lesson.post_after(before, "Results: Same brain, a year later: again")
    text = reveal.text
    assert (
        "Before → after, among the 3 members who answered both times: "
        "1 moved to the right answer, 1 held it, 1 left it, 0 stayed wrong."
    ) in text
    assert "1 answered only the first time and 0 only this time" in text
    assert not any(member.name in text or member.id in text for member in members)

    summary = await lesson.ask("results", ann)
    assert summary.private and "Results: RLVR" in summary.text
    assert "Before → after: 1 moved to the right answer, 1 held it, 1 left it, 0 stayed wrong" in (
        summary.text
    )
