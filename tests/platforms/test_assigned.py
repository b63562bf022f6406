"""Assigned lessons on the chat platforms: each member's own pass, privately; counts in the channel.

On Discord a member's steps come in one message only they see (ephemeral), moved forward in
place: each of its states is an own post here; on Slack they come in the member's direct
message with the app.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from itertools import count

from bot.engine import Action, Address, LessonEngine
from lessons.schema import PredictionStep, VerifierStep
from tests.conftest import FakeClock
from tests.platforms.driver import LESSON, Person, Platform
from tests.platforms.views import Post, Reply

TAKES_ANSWERS = ("prediction", "verifier", "free_answer")
GOLD = "3/4"
DAY = timedelta(days=1).total_seconds()
HOUR = timedelta(hours=1).total_seconds()
COUNTS = re.compile(r"\b(\d+) started · (\d+) finished\b")


async def assign(lesson: Platform, due: str = "3d") -> Post:
    """The host assigns the lesson; the assignment card posted in the channel (Slack, like for
    `/lesson start`, confirms with the post alone)."""
    await lesson.command("assign", options={"due": due})
    return await lesson.wait(lambda: next(iter(lesson.posts()), None), what="the card")


async def start(lesson: Platform, member: Person, card: Post) -> Post:
    """A member presses Start on the card; their first own step, shown to them alone."""
    shown = len(lesson.own_posts(member))
    await lesson.click(member, card, card.button("Start"))
    return await lesson.own_step_after(member, shown)


async def onward(lesson: Platform, member: Person, post: Post) -> Post:
    """The member's own Next; their next own step."""
    shown = len(lesson.own_posts(member))
    await lesson.click(member, post, post.button("Next", action="onward"))
    return await lesson.own_step_after(member, shown)


async def answer(lesson: Platform, member: Person, post: Post) -> Reply:
    """Answer the step the post shows; the reply to the answer that counts it."""
    step = LESSON.step_by_id(str(post.step))
    if isinstance(step, PredictionStep):
        return await lesson.press(member, post, post.button(arg=step.choices[1].id))
    if isinstance(step, VerifierStep):
        replies = [
            await lesson.press(member, post, post.button(action="up", arg=attempt.id))
            for attempt in step.attempts
        ]
        assert not any("So far" in reply.text for reply in replies)  # rated blind
        checked = await lesson.press(member, post, post.button(action="check"))
        assert "checker" in checked.text.lower(), checked.text
        return checked
    return await lesson.answer(member, post, GOLD)


async def test_three_members_take_the_lesson_privately_and_the_channel_sees_counts(
    lesson: Platform, engine: LessonEngine
) -> None:
    card = await assign(lesson)
    assert "Assignment" in card.text and "0 started · 0 finished" in card.text
    start_address, run_id = card.button("Start"), card.run
    members = [lesson.member(name) for name in ("Ines", "Jonah", "Kirra")]
    posts = {member.id: await start(lesson, member, card) for member in members}
    for index, step in enumerate(LESSON.steps):
        order = members[index % 3 :] + members[: index % 3]  # who answers first rotates
        for position, member in zip(count(1), order, strict=False):
            post = posts[member.id]
            assert post.step == step.id and f"Step {index + 1}" in post.text
            if step.kind in TAKES_ANSWERS:
                reply = await answer(lesson, member, post)
                assert reply.private and f"({position} answered)" in reply.text, reply.text
                assert "until the reveal" not in reply.text  # its tally is shown at once
                if step.id == "what-changed-again":  # the right answer both times
                    assert "You held the right answer." in reply.text
                    assert f"{position} held it" in reply.text
        if index + 1 < len(LESSON.steps):
            for member in order:
                posts[member.id] = await onward(lesson, member, posts[member.id])
    for member in members:
        last = posts[member.id]
        done = await lesson.press(member, last, last.button("Next", action="onward"))
        assert "You have finished the lesson" in done.text

    assert len(lesson.posts()) == 1  # the channel shows the card, and nothing members did
    await lesson.wait(lambda: "3 started · 3 finished" in lesson.posts()[0].text, what="counts")
    progress = await lesson.ask("progress")
    assert "3 started · 3 finished" in progress.text

    await lesson.command("close")  # Slack confirms it with the results alone
    results = await lesson.post_after(1, "Results")
    assert "Assigned lesson, closed: 3 started · 3 answered · 3 finished" in results.text
    assert "reveal" not in results.text.lower() and "took part" not in results.text
    closed_card = await lesson.wait(
        lambda: next((p for p in lesson.posts()[:1] if "Closed." in p.text), None),
        what="the card closed",
    )
    assert not any(button.enabled for button in closed_card.buttons if "Start" in button.label)
    late = await lesson.press(lesson.member("Lior"), card, start_address)
    assert "closed" in late.text and "results" in late.text
    assert (await engine.store.pass_progress(run_id)).started == 3  # Lior was not let in


def card_counts(card: Post) -> tuple[int, int] | None:
    """The card's "N started · M finished", as it reads now."""
    found = COUNTS.search(card.text)
    return None if found is None else (int(found[1]), int(found[2]))


async def card_shows(lesson: Platform, card: Post, started: int, finished: int) -> None:
    """Wait until the card in the channel reads exactly these counts (its edits are spaced)."""
    counts = (started, finished)
    await lesson.wait(lambda: card_counts(card) == counts, what=f"the card to count {counts}")


async def finish(lesson: Platform, member: Person, post: Post) -> None:
    """The member presses their own Next at each step left, up to the end of the lesson."""
    while post.step != LESSON.steps[-1].id:
        post = await onward(lesson, member, post)
    done = await lesson.press(member, post, post.button("Next", action="onward"))
    assert "You have finished the lesson" in done.text, done.text


async def test_the_card_counts_each_start_and_finish_whatever_channel_members_click_in(
    lesson: Platform, clock: FakeClock
) -> None:
    card = await assign(lesson)
    assert card_counts(card) == (0, 0)
    ines, jonah, kirra = (lesson.member(name) for name in ("Ines", "Jonah", "Kirra"))
    first_of: dict[str, Post] = {}
    for member, expected in ((ines, (1, 0)), (jonah, (2, 0))):
        clock.advance(HOUR)
        first_of[member.id] = await start(lesson, member, card)
        await card_shows(lesson, card, *expected)
    clock.advance(HOUR)
    await finish(lesson, ines, first_of[ines.id])  # on Slack: each click in her DM
    await card_shows(lesson, card, 2, 1)
    clock.advance(HOUR)
    first_of[kirra.id] = await start(lesson, kirra, card)
    await card_shows(lesson, card, 3, 1)
    for member, expected in ((kirra, (3, 2)), (jonah, (3, 3))):
        clock.advance(HOUR)
        await finish(lesson, member, first_of[member.id])
        await card_shows(lesson, card, *expected)
    await lesson.settle()
    assert lesson.missing_edits() == []  # every edit went to the channel holding the card
    assert len(lesson.posts()) == 1


async def test_nothing_before_answering_and_a_forged_start_changes_nothing(
    lesson: Platform, engine: LessonEngine
) -> None:
    card = await assign(lesson)
    ines = lesson.member("Ines")
    first = await start(lesson, ines, card)
    assert "So far" not in first.text
    question = first
    while question.step != "what-changed":
        question = await onward(lesson, ines, question)
    assert "So far" not in question.text  # no tally before answering
    wrong_step = Address(question.run, LESSON.steps[0].id, Action.ONWARD).encode()
    refused = await lesson.press(ines, question, wrong_step)
    assert "not where you are" in refused.text
    outsider = lesson.member("Omar")
    refused = await lesson.press(outsider, question, question.button(arg="bigger-model"))
    assert "Press Start" in refused.text
    run_id = card.run
    assert await engine.store.member_votes(run_id, "what-changed", outsider.id) == {}
    for verb, options in (("progress", {}), ("close", {}), ("assign", {"due": "1d"})):
        refused = await lesson.ask(verb, outsider, options)
        assert refused.private and "host" in refused.text.lower(), (verb, refused.text)
    assert (await engine.store.pass_progress(run_id)).started == 1


async def test_a_bad_due_time_gets_the_usage_and_stores_nothing(
    lesson: Platform, engine: LessonEngine
) -> None:
    reply = await lesson.ask("assign", options={"due": "someday"})
    assert reply.private and "is not a time" in reply.text and "Usage" in reply.text
    assert lesson.posts() == []
    assert await engine.store.get_run(1) is None


async def test_one_reminder_reaches_only_members_who_started_and_did_not_finish(
    lesson: Platform, engine: LessonEngine, clock: FakeClock
) -> None:
    await lesson.command("assign", options={"due": "3d", "remind": "1d"})
    card = await lesson.wait(lambda: next(iter(lesson.posts()), None), what="the card")
    ines, jonah, kirra, lior = (lesson.member(n) for n in ("Ines", "Jonah", "Kirra", "Lior"))
    await start(lesson, ines, card)
    post = await start(lesson, jonah, card)
    while post.step != LESSON.steps[-1].id:
        post = await onward(lesson, jonah, post)
    await lesson.press(jonah, post, post.button("Next", action="onward"))  # finished
    await start(lesson, lior, card)
    lesson.close_direct_messages(lior)

    assert await lesson.fire_timers() == 0  # not yet: the reminder is two days away
    clock.advance(2 * DAY + 60)
    await lesson.fire_timers()  # on Discord the bot's own timer round may send it first
    await lesson.wait(lambda: reminders(lesson, ines), what="the reminder")
    progress = await lesson.ask("progress")
    for _ in range(50):  # that round may still be sending
        if "Could not be messaged: 1" in progress.text:
            break
        await lesson.fire_timers()
        progress = await lesson.ask("progress")
    assert "Could not be messaged: 1" in progress.text
    assert "3 started · 1 finished" in progress.text
    await lesson.fire_timers()  # another round sends nothing more

    (reminder,) = reminders(lesson, ines)
    assert f"step 1 of {len(LESSON.steps)}" in reminder
    # the command a member can see: on Discord `/lesson` is shown only to hosts
    back = {"discord": "/lesson-me", "slack": "/lesson continue"}[lesson.name]
    assert f"`{back}`" in reminder
    assert reminders(lesson, jonah) == reminders(lesson, kirra) == reminders(lesson, lior) == []
    assert lesson.posts()[1:] == []  # nothing in the channel


def reminders(lesson: Platform, member: Person) -> list[str]:
    """The reminders the member got privately."""
    return [text for text in lesson.direct_texts(member) if "Reminder" in text]


async def test_continue_or_start_again_brings_a_member_back_to_their_step(
    lesson: Platform,
) -> None:
    card = await assign(lesson)
    ines = lesson.member("Ines")
    second = await onward(lesson, ines, await start(lesson, ines, card))
    assert second.step == LESSON.steps[1].id
    shown = len(lesson.own_posts(ines))
    await lesson.command("continue", ines)
    assert (await lesson.own_step_after(ines, shown)).step == second.step
    assert (await start(lesson, ines, card)).step == second.step  # Start again: the same


async def test_the_export_has_a_row_for_a_member_who_started_and_answered_nothing(
    lesson: Platform,
) -> None:
    card = await assign(lesson)
    ines, jonah = lesson.member("Ines"), lesson.member("Jonah")
    await start(lesson, ines, card)  # opens the lesson, answers nothing
    post = await start(lesson, jonah, card)
    while LESSON.step_by_id(str(post.step)).kind not in TAKES_ANSWERS:
        post = await onward(lesson, jonah, post)
    await answer(lesson, jonah, post)

    rows = list(csv.DictReader(io.StringIO(await lesson.export_csv())))
    by_member = {row["user_id"]: row for row in rows}
    assert set(by_member) == {ines.id, jonah.id}
    silent = by_member[ines.id]
    assert silent["started_at"] and silent["step"] == silent["value"] == ""
    assert silent["finished_at"] == ""
    assert by_member[jonah.id]["step"] == post.step and by_member[jonah.id]["value"]
