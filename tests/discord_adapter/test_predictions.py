"""A prediction question: choices, changing one's mind, the reveal, and host rights."""

from __future__ import annotations

from typing import Any

from bot.model import Phase, Place
from fakes.fake_discord import CHANNEL_ID, GUILD_ID, MANAGE_GUILD
from storage import SqlRunStore
from tests.discord_adapter.helpers import LessonDriver, button, buttons

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PLACE = Place("discord", str(GUILD_ID), str(CHANNEL_ID))


def bar_line(text: str, label_start: str) -> str:
    """The text bar line of the choice whose label starts with `label_start`."""
    return next(line for line in text.splitlines() if f") {label_start}" in line)


async def test_channel_predicts_changes_its_mind_and_sees_the_reveal(
    lesson: LessonDriver,
) -> None:
    fake = lesson.fake
    question = await lesson.reach("what-changed")
    assert len(buttons(question)) == 5
    ann, ben = fake.member("ann"), fake.member("ben")

    first = await lesson.press(ann, question, button(question, arg="bigger-model"))
    assert first.ephemeral and "You chose" in first.content
    second = await lesson.press(ben, question, button(question, arg="checkable-reward"))
    assert second.ephemeral
    changed = await lesson.press(ann, question, button(question, arg="checkable-reward"))
    assert changed.ephemeral and "Changed your answer" in changed.content

    before = len(lesson.messages())
    revealed = await lesson.press(lesson.host, question, button(question, action="reveal"))
    assert revealed.ephemeral
    results = await lesson.reveal_after(before)
    text = results["embeds"][0]["description"]
    assert "**2 answered**" in text
    assert "2 (100%)" in bar_line(text, "A new training stage") and "✅" in text
    assert "0 (0%)" in bar_line(text, "A bigger model")
    assert results["embeds"][0]["image"]["url"] == "attachment://chart.png"
    (upload,) = fake.uploads[int(results["id"])]
    assert upload.filename == "chart.png" and upload.data.startswith(PNG_SIGNATURE)
    assert [b["label"] for b in buttons(results)] == ["Next"]

    closed = await fake.wait_until(
        lambda: question if "answers closed" in question["content"] else None
    )
    assert "2 answered" in closed["content"]
    assert all(b["disabled"] for b in buttons(closed))
    closing = fake.edits_of(question)[-1]
    posting = next(c for c in fake.calls if c.files and c.method == "POST")
    assert fake.calls.index(closing) < fake.calls.index(posting)

    refused = await lesson.press(ben, results, button(results, action="next"))
    assert refused.ephemeral and "Only a lesson host" in refused.content
    assert lesson.messages()[-1] is results


async def test_a_member_without_rights_is_refused_and_nothing_moves(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    fake = lesson.fake
    mo = fake.member("mo")
    refused = await lesson.command("start", user=mo)
    assert refused.ephemeral and "Only a lesson host can start" in refused.content
    assert await store.find_active_run(PLACE) is None
    assert lesson.messages() == []

    question = await lesson.reach("what-changed")
    run = await store.find_active_run(PLACE)
    assert run is not None and run.position.phase is Phase.OPEN
    posted = len(lesson.messages())
    at_button = await lesson.press(mo, question, button(question, action="reveal"))
    assert at_button.ephemeral and at_button.response_type == 4
    assert "Only a lesson host can reveal" in at_button.content
    by_command = await lesson.command("next", user=mo)
    assert by_command.ephemeral and "Only a lesson host" in by_command.content

    after = await store.get_run(run.id)
    assert after is not None and after.position == run.position
    assert len(lesson.messages()) == posted
    assert not any(b["disabled"] for b in buttons(question))


async def test_the_host_role_given_by_id_grants_host_rights(lesson: LessonDriver) -> None:
    rita = LessonDriver(lesson.fake, lesson.fake.role_host("rita"))
    first = await rita.start()
    assert first["embeds"][0]["title"] == "What this lesson is about"


async def test_manage_server_grants_host_rights(lesson: LessonDriver) -> None:
    assert lesson.host.permissions & MANAGE_GUILD and not lesson.host.roles
    first = await lesson.start()
    assert first["embeds"][0]["title"] == "What this lesson is about"


async def test_a_role_named_lesson_host_without_the_configured_id_grants_nothing(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    nora = lesson.fake.namesake_host("nora")
    refused = await lesson.command("start", user=nora)
    assert refused.ephemeral and "Only a lesson host can start a lesson." in refused.content
    assert await store.find_active_run(PLACE) is None
    assert not lesson.messages()


async def test_old_question_buttons_say_the_lesson_moved_on(lesson: LessonDriver) -> None:
    await lesson.reach("three-stages")
    old: dict[str, Any] = await lesson.step("what-changed")
    assert all(b["disabled"] for b in buttons(old))
    reply = await lesson.press(lesson.fake.member("ann"), old, button(old, arg="more-text"))
    assert reply.ephemeral and "moved on" in reply.content


async def test_results_are_private_and_show_only_revealed_questions(lesson: LessonDriver) -> None:
    await lesson.reach("three-stages")
    reply = await lesson.command("results", user=lesson.fake.member("ann"))
    assert reply.ephemeral
    text = reply.message["embeds"][0]["description"]
    assert "Same brain, a year later" in text
    stopped = await lesson.command("stop")
    assert stopped.ephemeral and "Stopped" in stopped.content
    summary = lesson.messages()[-1]
    assert summary["embeds"][0]["title"].startswith("Results")


async def test_stopping_after_a_reveal_disables_the_results_next(lesson: LessonDriver) -> None:
    await lesson.reach("what-changed")
    before = len(lesson.messages())
    await lesson.command("reveal")
    results = await lesson.reveal_after(before)
    assert not any(b["disabled"] for b in buttons(results))
    stopped = await lesson.command("stop")
    assert "Stopped" in stopped.content
    assert all(b["disabled"] for b in buttons(results))
    assert lesson.messages()[-1]["embeds"][0]["title"].startswith("Results: RLVR")


async def test_stopping_closes_the_open_question(lesson: LessonDriver) -> None:
    question = await lesson.reach("what-changed")
    await lesson.command("stop")
    await lesson.fake.wait_until(lambda: all(b["disabled"] for b in buttons(question)))
    reply = await lesson.command("next")
    assert reply.ephemeral and "No lesson is running" in reply.content


async def test_a_step_with_a_chart_posts_it_as_an_image(lesson: LessonDriver) -> None:
    shown = await lesson.reach("train-on-votes")
    (upload,) = lesson.fake.uploads[int(shown["id"])]
    assert upload.data.startswith(PNG_SIGNATURE)
    assert shown["embeds"][0]["image"]["url"] == "attachment://chart.png"
