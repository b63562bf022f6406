"""The verifier exercise: thumbs like a human rater, then the real checker, then the reveal."""

from __future__ import annotations

from fakes.fake_discord import EPHEMERAL
from tests.discord_adapter.helpers import LessonDriver, button, buttons


def attempt_line(text: str, label: str) -> str:
    """The tally line printed under an attempt's label in the reveal."""
    lines = text.splitlines()
    return lines[lines.index(f"**{label}**") + 1]


async def test_rate_run_the_checker_and_compare_at_the_reveal(lesson: LessonDriver) -> None:
    fake = lesson.fake
    exercise = await lesson.reach("be-the-checker")
    titles = [embed["title"] for embed in exercise["embeds"]]
    assert titles[:2] == ["You're the checker", "The problem"] and len(titles) == 6
    assert sum(len(e["title"]) + len(e["description"]) for e in exercise["embeds"]) <= 6000
    assert [len(row["components"]) for row in exercise["components"]] == [3, 3, 3, 3, 1]
    ann, ben = fake.member("ann"), fake.member("ben")

    early = await lesson.press(ann, exercise, button(exercise, action="check", arg="second-look"))
    assert early.ephemeral and "first" in early.content

    rated = await lesson.press(ann, exercise, button(exercise, action="up", arg="polished"))
    assert rated.ephemeral and "👍" in rated.content
    checked = await lesson.press(ann, exercise, button(exercise, action="check", arg="polished"))
    assert checked.deferred and checked.response_type == 5
    assert checked.callback.body["data"]["flags"] & EPHEMERAL and checked.ephemeral
    assert "read the final answer as: **22.5**" in checked.content
    assert "Gold answer: **20**" in checked.content and "Reward: **0**" in checked.content

    await lesson.press(ann, exercise, button(exercise, action="down", arg="second-look"))
    right = await lesson.press(ann, exercise, button(exercise, action="check", arg="second-look"))
    assert "Reward: **1**" in right.content
    await lesson.press(ben, exercise, button(exercise, action="up", arg="polished"))

    before = len(lesson.messages())
    await lesson.command("reveal")
    results = await lesson.reveal_after(before)
    text = results["embeds"][0]["description"]
    polished = attempt_line(text, "The polished one")
    assert "100% 👍" in polished and "(2 👍 · 0 👎)" in polished and "reward **0**" in polished
    careful = attempt_line(text, "The second look")
    assert "(0 👍 · 1 👎)" in careful and "read **20**" in careful and "reward **1**" in careful
    assert fake.uploads[int(results["id"])][0].data.startswith(b"\x89PNG")
    assert all(b["disabled"] for b in buttons(exercise))
