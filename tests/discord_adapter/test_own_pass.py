"""A member's own pass of an assignment on Discord: one private message, moved forward in place.

The fake keeps each member's ephemeral messages as their client shows them, refuses an
interaction token older than 15 minutes, and forgets a member's ephemeral messages when their
client reloads, as Discord does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.discord_adapter.passes import RETIRED
from bot.engine import LessonCatalog
from fakes.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    EphemeralMessage,
    FakeDiscord,
    FakeUser,
    PrivateReply,
)
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep
from tests.conftest import FakeClock
from tests.discord_adapter.helpers import LessonDriver, button, buttons, step_id

LESSON = LessonCatalog().get("rlvr")
HOUR = 3600.0
QUARTER_HOUR = 15 * 60.0 + 60.0
"""Just past an interaction token's 15 minutes."""
FORM = 9
UPDATE_MESSAGE = 7
LESSON_ME = "lesson-me"
Message = dict[str, Any]


async def assign(lesson: LessonDriver) -> Message:
    """The host assigns the lesson here; the card posted in the channel."""
    reply = await lesson.command("assign", due="3d")
    assert "Assigned run" in reply.content, reply.content
    return await lesson.fake.wait_until(lambda: next(iter(lesson.messages()), None), what="card")


def live(fake: FakeDiscord, member: FakeUser) -> list[EphemeralMessage]:
    """The member's private messages that have a button they can click."""
    return fake.live_ephemeral_messages(member)


def the_pass(fake: FakeDiscord, member: FakeUser) -> Message:
    """The member's one private message with live buttons, as it looks now."""
    shown = live(fake, member)
    assert len(shown) == 1, [message.message["content"] for message in shown]
    return shown[0].message


async def settled_pass(fake: FakeDiscord, member: FakeUser) -> Message:
    """The member's one live private message, once an older one has lost its buttons."""
    await fake.wait_until(lambda: len(live(fake, member)) == 1, what="one live message")
    return the_pass(fake, member)


async def click(fake: FakeDiscord, member: FakeUser, custom_id: str) -> PrivateReply:
    """The member clicks a button of their pass message; what they saw then."""
    sent = await fake.click(member, the_pass(fake, member), custom_id)
    return await fake.private_reply(sent)


async def start(fake: FakeDiscord, member: FakeUser, card: Message) -> Message:
    """The member presses Start on the card; the private message it opened."""
    before = {message.id for message in fake.ephemeral_messages(member)}
    await fake.private_reply(await fake.click(member, card, button(card, "Start")))
    opened = await fake.wait_until(
        lambda: next((m for m in fake.ephemeral_messages(member) if m.id not in before), None),
        what="a fresh private message",
    )
    return copy.deepcopy(opened.message)  # as it was shown then


async def answer(fake: FakeDiscord, member: FakeUser, text: str) -> PrivateReply:
    """The member opens the answer form from their pass message and submits `text`."""
    shown = the_pass(fake, member)
    answer_id = button(shown, action="answer")
    opened = await fake.private_reply(await fake.click(member, shown, answer_id))
    assert opened.response_type == FORM
    sent = await fake.submit_form(member, answer_id, {"answer": text}, shown)
    return await fake.private_reply(sent)


def actions(message: Message) -> set[str]:
    """What the message's buttons do: `choose`, `up`, `onward`..."""
    return {item["custom_id"].split(":")[3] for item in buttons(message)}


async def take_step(fake: FakeDiscord, member: FakeUser, step_index: int) -> None:
    """Answer the step the pass shows as its kind asks; each answer redraws the same message."""
    step = LESSON.steps[step_index]
    message_id = the_pass(fake, member)["id"]
    if isinstance(step, PredictionStep):
        reply = await click(fake, member, button(the_pass(fake, member), arg=step.choices[1].id))
        assert reply.response_type == UPDATE_MESSAGE and "You chose" in reply.content
        more = {"more"} if step.more else set()  # a question's More opens once it is answered
        assert actions(the_pass(fake, member)) == {"onward", *more}  # no choice is left
    elif isinstance(step, VerifierStep):
        for attempt in step.attempts:
            await click(fake, member, button(the_pass(fake, member), action="up", arg=attempt.id))
            assert {"up", "down", "check", "onward"} <= actions(the_pass(fake, member))
        for attempt in step.attempts:
            shown = the_pass(fake, member)
            reply = await click(fake, member, button(shown, action="check", arg=attempt.id))
            assert f"Checker on {attempt.label}" in reply.content, reply.content
    elif isinstance(step, FreeAnswerStep):
        reply = await answer(fake, member, "3/4")
        assert "Try 1" in reply.content
    else:
        return
    shown = the_pass(fake, member)
    assert shown["id"] == message_id and step_id(shown) == step.id
    assert "So far" in shown["embeds"][-1]["title"]
    (chart,) = fake.uploads[int(message_id)]
    assert chart.data.startswith(b"\x89PNG") and chart.description


async def test_a_whole_pass_leaves_one_private_message_with_live_buttons_at_any_time(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    card = await assign(lesson)
    ines = fake.member("Ines")
    first = await start(fake, ines, card)
    kinds = set()
    for index, step in enumerate(LESSON.steps):
        shown = the_pass(fake, ines)
        assert shown["id"] == first["id"], "the pass moves on in the same message"
        assert step_id(shown) == step.id
        assert shown["content"].startswith(f"**Step {index + 1} of {len(LESSON.steps)}**")
        await take_step(fake, ines, index)
        kinds.add(step.kind)
        reply = await click(fake, ines, button(the_pass(fake, ines), "Next", action="onward"))
        assert reply.response_type == UPDATE_MESSAGE
        assert len(fake.ephemeral_messages(ines)) == 1  # nothing new was sent
        assert len(live(fake, ines)) == (1 if index + 1 < len(LESSON.steps) else 0)

    assert {"prediction", "verifier", "free_answer", "narration", "mechanism"} <= kinds
    (finished,) = fake.ephemeral_messages(ines)
    assert "You have finished the lesson" in finished.message["content"]
    assert finished.message["components"] == [] and finished.message["embeds"] == []
    with_buttons = [s for user, s in fake.ephemeral_log if user == ines.id and s["components"]]
    assert {s["id"] for s in with_buttons} == {first["id"]}  # no other message ever had any


async def test_an_answer_typed_in_a_form_edits_the_message_it_came_from(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    card = await assign(lesson)
    ines = fake.member("Ines")
    opened = await start(fake, ines, card)
    while step_id(the_pass(fake, ines)) != "your-turn":
        await click(fake, ines, button(the_pass(fake, ines), "Next", action="onward"))

    reply = await answer(fake, ines, "7/8")
    assert reply.deferred and reply.call.method == "PATCH"  # the checker: deferred, then edited
    assert reply.call.path.endswith("/messages/@original")
    (edited,) = fake.ephemeral_messages(ines)
    assert edited.id == int(opened["id"])
    assert "Try 1" in edited.message["content"] and "Not quite" in edited.message["content"]
    assert "So far" in edited.message["embeds"][-1]["title"]
    assert actions(edited.message) == {"answer", "more", "onward"}  # tries left: Answer stays


async def test_a_click_on_an_hour_old_private_message_moves_it_on(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    card = await assign(lesson)
    ines = fake.member("Ines")
    opened = await start(fake, ines, card)
    fake.advance(HOUR)

    reply = await click(fake, ines, button(opened, "Next", action="onward"))
    assert reply.response_type == UPDATE_MESSAGE
    moved = the_pass(fake, ines)
    assert moved["id"] == opened["id"] and step_id(moved) == LESSON.steps[1].id
    assert fake.expired == []  # the click's own interaction edited it, not Start's old token


def later(fake: FakeDiscord, clock: FakeClock, seconds: float) -> None:
    """Time passes, for Discord and for the bot alike."""
    fake.advance(seconds)
    clock.advance(seconds)


async def click_stale(fake: FakeDiscord, member: FakeUser, older: Message, newer: Message) -> None:
    """Next on the older message retires it in place; the newer stays the one live pass."""
    shown = the_pass_but(fake, member, older)
    before = len(fake.ephemeral_messages(member))
    reply = await fake.private_reply(await fake.click(member, older, button(older, "Next")))
    assert reply.response_type == UPDATE_MESSAGE and reply.content == RETIRED
    retired = fake.ephemerals[int(older["id"])].message
    assert retired["components"] == [] and retired["embeds"] == older["embeds"]
    assert the_pass(fake, member) == shown  # one live pass, the newer, untouched by the click
    assert shown["id"] == newer["id"]
    assert len(fake.ephemeral_messages(member)) == before  # nothing new was sent


def the_pass_but(fake: FakeDiscord, member: FakeUser, older: Message) -> Message:
    """The member's live pass message other than `older`, as it looks now."""
    (shown,) = [m.message for m in live(fake, member) if m.id != int(older["id"])]
    return copy.deepcopy(shown)


async def started_twice(
    lesson: LessonDriver, pause: Callable[[], None]
) -> tuple[FakeUser, Message, Message]:
    """Ines presses Start, time passes (`pause`), she presses it again: the two messages."""
    card = await assign(lesson)
    ines = lesson.fake.member("Ines")
    older = await start(lesson.fake, ines, card)
    pause()
    return ines, older, await start(lesson.fake, ines, card)


async def test_after_a_quarter_hour_a_click_on_the_older_message_retires_it_in_place(
    lesson: LessonDriver, fake: FakeDiscord, clock: FakeClock
) -> None:
    ines, older, newer = await started_twice(lesson, partial(later, fake, clock, QUARTER_HOUR))
    assert fake.expired == []  # the bot knows the older one's token ran out: it does not try it

    await click_stale(fake, ines, older, newer)
    assert step_id(the_pass(fake, ines)) == LESSON.steps[0].id


async def test_a_click_on_a_stale_message_after_moving_on_sends_no_second_message(
    lesson: LessonDriver, fake: FakeDiscord, clock: FakeClock
) -> None:
    ines, older, newer = await started_twice(lesson, partial(later, fake, clock, HOUR))
    await fake.private_reply(await fake.click(ines, newer, button(newer, "Next")))
    later(fake, clock, HOUR)

    await click_stale(fake, ines, older, newer)  # no "That step is not where you are"
    assert step_id(the_pass(fake, ines)) == LESSON.steps[1].id
    assert fake.expired == []


async def test_an_older_message_discord_refused_to_retire_is_retired_by_its_next_click(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    # only Discord's clock moves: the bot still takes the old token as good
    ines, older, newer = await started_twice(lesson, partial(fake.advance, HOUR))
    await fake.wait_until(lambda: fake.expired, what="an edit with an old token")
    await click_stale(fake, ines, older, newer)


async def test_start_pressed_twice_leaves_only_the_newest_message_live(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    card = await assign(lesson)
    ines = fake.member("Ines")
    older = await start(fake, ines, card)
    newer = await start(fake, ines, card)

    assert (await settled_pass(fake, ines))["id"] == newer["id"]
    assert step_id(newer) == LESSON.steps[0].id
    retired = fake.ephemerals[int(older["id"])].message
    assert retired["content"] == RETIRED and retired["components"] == []
    assert retired["embeds"] == older["embeds"]  # the step still reads as it did
    assert fake.expired == []


async def test_after_a_reload_start_or_lesson_me_opens_a_fresh_message_at_the_members_step(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    card = await assign(lesson)
    ines = fake.member("Ines")
    await start(fake, ines, card)
    await click(fake, ines, button(the_pass(fake, ines), "Next", action="onward"))
    second = LESSON.steps[1].id

    fake.reload(ines)
    assert fake.ephemeral_messages(ines) == []
    again = await start(fake, ines, card)
    assert step_id(again) == second and the_pass(fake, ines)["id"] == again["id"]

    fake.reload(ines)
    reply = await fake.private_reply(await fake.top_command(ines, LESSON_ME))
    assert reply.ephemeral and step_id(reply.message) == second
    assert step_id(the_pass(fake, ines)) == second
    await click(fake, ines, button(the_pass(fake, ines), "Next", action="onward"))
    assert step_id(the_pass(fake, ines)) == LESSON.steps[2].id


async def test_lesson_me_is_for_every_member_and_brings_them_back_or_shows_the_results(
    lesson: LessonDriver, fake: FakeDiscord
) -> None:
    sync = await fake.wait_for(lambda c: c.method == "PUT" and "/commands" in c.path)
    (command,) = [c for c in sync.body if c["name"] == LESSON_ME]
    assert command["default_member_permissions"] is None and command["dm_permission"] is False
    assert command["description"] and not command.get("options")
    assert sync.path.endswith(f"/guilds/{GUILD_ID}/commands")

    ines = fake.member("Ines")
    card = await assign(lesson)
    not_started = await fake.private_reply(await fake.top_command(ines, LESSON_ME))
    assert not_started.ephemeral and "Press Start" in not_started.content
    await start(fake, ines, card)
    back = await fake.private_reply(await fake.top_command(ines, LESSON_ME))
    assert step_id(back.message) == LESSON.steps[0].id
    assert step_id(await settled_pass(fake, ines)) == LESSON.steps[0].id  # the older: no buttons

    await lesson.command("close")
    results = await fake.private_reply(await fake.top_command(ines, LESSON_ME))
    assert results.ephemeral and results.message["embeds"][0]["title"].startswith("Results")
    assert "1 started" in results.message["embeds"][0]["description"]
    assert len(lesson.messages()) == 2  # the card and the results: nothing new in the channel
    late = await click(fake, ines, button(the_pass(fake, ines), "Next", action="onward"))
    assert "closed" in late.content and "results" in late.content

    await lesson.start()  # a live run: the results so far, privately
    live_results = await fake.private_reply(await fake.top_command(ines, LESSON_ME))
    assert live_results.ephemeral and live_results.message["embeds"][0]["title"].startswith(
        "Results"
    )
    assert all(int(m["channel_id"]) == CHANNEL_ID for m in lesson.messages())
