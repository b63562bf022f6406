"""The verifier exercise: rate every attempt blind, then run the checker, then the reveal."""

from __future__ import annotations

from fakes.fake_discord import EPHEMERAL
from tests.discord_adapter.helpers import LessonDriver, button, buttons

GOLD = "20"


def attempt_line(text: str, label: str) -> str:
    """The tally line printed under an attempt's label in the reveal."""
    lines = text.splitlines()
    return lines[lines.index(f"**{label}**") + 1]


def shows_no_verdict(text: str) -> bool:
    """Whether a private reply names neither the gold answer nor a checker verdict."""
    return GOLD not in text and "reward" not in text and "gold answer" not in text


async def test_rate_every_attempt_then_run_the_checker_and_compare_at_the_reveal(
    lesson: LessonDriver,
) -> None:
    fake = lesson.fake
    exercise = await lesson.reach("be-the-checker")
    titles = [embed["title"] for embed in exercise["embeds"]]
    assert titles[:2] == ["You're the checker", "The problem"] and len(titles) == 6
    assert sum(len(e["title"]) + len(e["description"]) for e in exercise["embeds"]) <= 6000
    assert [len(row["components"]) for row in exercise["components"]] == [3, 3, 3, 3, 1]
    ann, ben = fake.member("ann"), fake.member("ben")

    early = await lesson.press(ann, exercise, button(exercise, action="check", arg="second-look"))
    assert early.ephemeral and "4 attempts left to rate" in early.content
    rated = await lesson.press(ann, exercise, button(exercise, action="up", arg="polished"))
    assert rated.ephemeral and "👍" in rated.content and "3 attempts left to rate" in rated.content
    still = await lesson.press(ann, exercise, button(exercise, action="check", arg="polished"))
    assert "3 attempts left to rate" in still.content
    assert all(shows_no_verdict(reply.content) for reply in (early, rated, still))

    for attempt in ("thorough", "hedge", "second-look"):
        last = await lesson.press(ann, exercise, button(exercise, action="down", arg=attempt))
    assert "You have rated all 4" in last.content and shows_no_verdict(last.content)
    checked = await lesson.press(ann, exercise, button(exercise, action="check", arg="polished"))
    assert checked.deferred and checked.response_type == 5
    assert checked.callback.body["data"]["flags"] & EPHEMERAL and checked.ephemeral
    assert f"It read **22.5**; gold answer **{GOLD}** → reward **0**" in checked.content
    assert "now locked" in checked.content
    right = await lesson.press(ann, exercise, button(exercise, action="check", arg="second-look"))
    assert "→ reward **1**" in right.content
    relabel = await lesson.press(ann, exercise, button(exercise, action="up", arg="second-look"))
    assert relabel.ephemeral and "ratings are locked" in relabel.content

    await lesson.press(ben, exercise, button(exercise, action="up", arg="polished"))
    blind = await lesson.press(ben, exercise, button(exercise, action="check", arg="polished"))
    assert "3 attempts left to rate" in blind.content and shows_no_verdict(blind.content)

    before = len(lesson.messages())
    await lesson.command("reveal")
    results = await lesson.reveal_after(before)
    text = results["embeds"][0]["description"]
    polished = attempt_line(text, "The polished one")
    assert "100% 👍" in polished and "(2 👍 · 0 👎)" in polished and "reward **0**" in polished
    careful = attempt_line(text, "The second look")
    assert "(0 👍 · 1 👎)" in careful and f"read **{GOLD}**" in careful
    assert "reward **1**" in careful
    assert "given before its rater saw the checker" in text
    assert fake.uploads[int(results["id"])][0].data.startswith(b"\x89PNG")
    assert all(b["disabled"] for b in buttons(exercise))


async def test_a_member_who_rated_some_attempts_sees_the_checker_only_at_the_reveal(
    lesson: LessonDriver,
) -> None:
    fake = lesson.fake
    exercise = await lesson.reach("be-the-checker")
    cal = fake.member("cal")
    await lesson.press(cal, exercise, button(exercise, action="down", arg="polished"))
    refused = await lesson.press(cal, exercise, button(exercise, action="check", arg="hedge"))
    assert "3 attempts left to rate" in refused.content and shows_no_verdict(refused.content)

    before = len(lesson.messages())
    await lesson.command("reveal")
    text = (await lesson.reveal_after(before))["embeds"][0]["description"]
    assert "(0 👍 · 1 👎)" in attempt_line(text, "The polished one")
    assert "reward **1**" in attempt_line(text, "The second look")
    assert "given before its rater saw the checker" in text
    late = await lesson.press(cal, exercise, button(exercise, action="check", arg="hedge"))
    assert late.ephemeral and "Reward" not in late.content
