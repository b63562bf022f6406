"""The lesson's recall step on Discord: the channel's before and after, in counts."""

from __future__ import annotations

from tests.discord_adapter.helpers import LessonDriver, button

RIGHT, WRONG, OTHER = "checkable-reward", "bigger-model", "more-text"


async def test_the_recall_reveal_shows_who_moved_held_and_left(lesson: LessonDriver) -> None:
    fake = lesson.fake
    names = ("Annika", "Benedikt", "Cyrano", "Delphine")
    ann, ben, cy, dee = (fake.member(name) for name in names)
    first = await lesson.reach("what-changed")
    for member, choice in ((ann, WRONG), (ben, RIGHT), (cy, RIGHT), (dee, WRONG)):
        await lesson.press(member, first, button(first, arg=choice))
    again = await lesson.reach_from(first, "what-changed-again")
    assert again["embeds"][0]["title"] == "Same brain, a year later: again"
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, OTHER)):
        await lesson.press(member, again, button(again, arg=choice))

    before = len(lesson.messages())
    await lesson.press(lesson.host, again, button(again, action="reveal"))
    text = (await lesson.reveal_after(before))["embeds"][0]["description"]
    assert (
        "Before → after, among the 3 members who answered both times: "
        "1 moved to the right answer, 1 held it, 1 left it."
    ) in text
    assert "1 answered only the first time and 0 only this time" in text
    assert not any(name in text for name in names)

    results = await lesson.command("results")
    summary = results.message["embeds"][0]["description"]
    assert "Before → after: 1 moved to the right answer, 1 held it, 1 left it" in summary
