"""A closed assignment's results on the chat platforms: the summary in the channel, and each
question's results (its tally with the right answer marked, its chart, the checker's table,
the recall's before and after) in a thread under it, posted once; `/lesson results` gives the
same privately."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from bot.engine.cards import takes_answers
from bot.service.assignments import TEND_EVERY
from fakes.slack_driver import CHANNEL, message_ts
from storage import SqlRunStore
from tests.conftest import FakeClock
from tests.platforms.driver import LESSON, Person, Platform, Sent, choice_labels
from tests.platforms.on_discord import DiscordPlatform
from tests.platforms.on_slack import SlackPlatform
from tests.platforms.test_assigned import TAKES_ANSWERS, answer, assign, onward, start
from tests.platforms.test_assigned_processes import (
    CLOSED_RESULTS,
    ONCE_WINDOW,
    folder,
    results_posts,
)
from tests.platforms.views import PNG_SIGNATURE, Post
from tests.waiting import wait_until

QUESTIONS = [step for step in LESSON.steps if takes_answers(step)]
FIRST, RECALL = "what-changed", "what-changed-again"
RIGHT, WRONG = "checkable-reward", "bigger-model"
RIGHT_MARK = "✅"
TEND_SECONDS = TEND_EVERY.total_seconds()


async def take_the_lesson(lesson: Platform, member: Person, card: Post) -> None:
    """A member answers every question of their own pass, then finishes it."""
    post = await start(lesson, member, card)
    while True:
        if LESSON.step_by_id(str(post.step)).kind in TAKES_ANSWERS:
            await answer(lesson, member, post)
        if post.step == LESSON.steps[-1].id:
            break
        post = await onward(lesson, member, post)
    done = await lesson.press(member, post, post.button("Next", action="onward"))
    assert "You have finished the lesson" in done.text


async def choose_wrong_at_first(lesson: Platform, member: Person, card: Post) -> None:
    """A member starts and gets the first question wrong."""
    post = await start(lesson, member, card)
    while post.step != FIRST:
        post = await onward(lesson, member, post)
    await lesson.press(member, post, post.button(arg=WRONG))


async def results_thread(lesson: Platform) -> tuple[Post, list[Post]]:
    """The results post, and its thread once it holds every question's results."""
    results = await lesson.post_after(1, CLOSED_RESULTS, timeout=30.0)
    thread = await lesson.wait(
        lambda: (posts := lesson.thread_posts(results)) and len(posts) >= len(QUESTIONS) and posts,
        30.0,
        "every question's results in the thread",
    )
    return results, thread


async def private_results(lesson: Platform, asked: Sent) -> str:
    """Everything `/lesson results` told the member, once it reached the last question's."""
    last = f"Results: {QUESTIONS[-1].title}"
    told = await lesson.wait(
        lambda: (text := "\n".join(r.text for r in lesson.told_in_answer(asked)))
        and last in text and text,
        what="every question in the private results",
    )
    assert all(reply.private for reply in lesson.told_in_answer(asked))
    return told


def right_answer_marked(text: str, step_id: str) -> bool:
    """Whether the reveal marks the right choice, and only it."""
    labels = choice_labels(step_id)
    lines = text.splitlines()
    marked = {choice for choice, label in labels.items()
              for line in lines if label in line and RIGHT_MARK in line}
    return marked == {RIGHT}


def in_order(thread: list[Post]) -> bool:
    """Whether the thread holds each question's results once, in the lesson's order."""
    titles = [f"Results: {step.title}" for step in QUESTIONS]
    return len(thread) == len(titles) and all(
        title in post.text for post, title in zip(thread, titles, strict=True)
    )


async def once(lesson: Platform, results: Post, clock: FakeClock) -> None:
    """Later timer rounds post no second results and nothing more in the thread."""
    for _ in range(2):
        clock.advance(TEND_SECONDS + 1)
        await lesson.fire_timers()
    assert len(results_posts(lesson)) == 1
    assert len(lesson.thread_posts(results)) == len(QUESTIONS)


async def test_closing_posts_each_questions_results_in_the_thread_once_and_results_repeat_it(
    lesson: Platform, clock: FakeClock
) -> None:
    card = await assign(lesson)
    ines, jonah = lesson.member("Ines"), lesson.member("Jonah")
    await take_the_lesson(lesson, ines, card)
    await choose_wrong_at_first(lesson, jonah, card)
    await lesson.command("close")

    results, thread = await results_thread(lesson)
    assert "Assigned lesson, closed: 2 started · 2 answered · 1 finished" in results.text
    assert in_order(thread)
    first = thread[0].text
    assert right_answer_marked(first, FIRST), first
    assert "1 of 2 (50%) chose the right answer." in first
    chart = await lesson.chart(thread[0])
    assert chart.png.startswith(PNG_SIGNATURE)
    right_label = choice_labels(FIRST)[RIGHT]
    assert f"{right_label} (the right answer): 1 of 2 (50%)" in chart.words, chart.words
    checker = thread[[step.kind for step in QUESTIONS].index("verifier")].text
    assert "👍" in checker and "→ reward" in checker
    recall = thread[[step.id for step in QUESTIONS].index(RECALL)].text
    assert "0 moved to the right answer, 1 held it, 0 left it" in recall
    assert "1 answered only the first time" in recall
    assert not any(member.id in post.text for post in thread for member in (ines, jonah))
    await once(lesson, results, clock)

    asked = await lesson.command("results", jonah)
    told = await private_results(lesson, asked)
    assert "Assigned lesson, closed: 2 started · 2 answered · 1 finished" in told
    for post in thread:
        missing = [line for line in post.text.splitlines() if line and line not in told]
        assert not missing, missing


async def test_the_due_time_closes_it_and_posts_each_questions_results_in_the_thread_once(
    lesson: Platform, clock: FakeClock
) -> None:
    card = await assign(lesson, due="2h")
    await choose_wrong_at_first(lesson, lesson.member("Ines"), card)
    clock.advance(2 * 3600 + 1)
    await lesson.fire_timers()  # on Discord the bot's own timer round may close it first

    results, thread = await results_thread(lesson)
    assert in_order(thread)
    assert "0 of 1 (0%) chose the right answer." in thread[0].text
    assert right_answer_marked(thread[0].text, FIRST)
    await once(lesson, results, clock)


async def closed_after_one_answer(lesson: Platform) -> Post:
    """An assignment Ines answered one question of, closed by the host: its results post."""
    card = await assign(lesson)
    await choose_wrong_at_first(lesson, lesson.member("Ines"), card)
    await lesson.command("close")
    return await lesson.post_after(1, CLOSED_RESULTS)


async def results_deleted_before_their_thread(lesson: SlackPlatform) -> Post:
    """The results post, deleted by a member before the bot replied under it."""
    fake = lesson.fake
    first_reply = fake.delay(lambda c: c.method == "chat.postMessage" and "thread_ts" in c.args)
    results = await closed_after_one_answer(lesson)
    await first_reply.wait_arrived()
    fake.delete_message(CHANNEL, message_ts(results.call))
    first_reply.released.set()
    return results


def thread_tries(lesson: Platform) -> int:
    """How often the bot tried a thread the platform refused: started one on Discord, replied
    under a deleted message on Slack (`invalid_thread_ts`)."""
    if isinstance(lesson, DiscordPlatform):
        return len([call for call in lesson.fake.calls if call.path.endswith("/threads")])
    assert isinstance(lesson, SlackPlatform)
    calls = lesson.fake.calls_to("chat.postMessage", ok_only=False)
    return len([call for call in calls if call.result.get("error") == "invalid_thread_ts"])


async def test_a_thread_the_platform_refuses_leaves_the_channel_alone_and_results_show_it_all(
    lesson: Platform, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses a thread the bot may not start; Slack one under a deleted message."""
    if isinstance(lesson, DiscordPlatform):
        lesson.fake.refuses_threads = True
        results = await closed_after_one_answer(lesson)
    else:
        assert isinstance(lesson, SlackPlatform)
        results = await results_deleted_before_their_thread(lesson)

    async def warned() -> bool:
        return "refused a thread under its results" in caplog.text

    await wait_until(warned, 15.0, "the warning")
    clock.advance(TEND_SECONDS + 1)
    await lesson.fire_timers()
    assert thread_tries(lesson) == 1  # refused once, not tried again every round
    assert lesson.thread_posts(results) == [] and len(lesson.posts()) == 2  # card, results
    asked = await lesson.command("results")
    told = await private_results(lesson, asked)
    assert right_answer_marked(told.split(f"Results: {QUESTIONS[1].title}")[0], FIRST)


@pytest.mark.slow
@pytest.mark.usefixtures("quick_due_checks")  # ONCE_WINDOW counts on it
async def test_a_thread_cut_short_by_a_crash_is_finished_once_by_the_next_process(
    platform: Platform, database_url: str, store: SqlRunStore, tmp_path: Path
) -> None:
    ines = platform.member("Ines")
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        card = await assign(platform)
        await choose_wrong_at_first(platform, ines, card)
        held = platform.park_thread_post(3)
        await platform.command("close")
        await held.wait_arrived(30.0)
        await bot.crash()
    (results,) = results_posts(platform)
    assert len(platform.thread_posts(results)) == 2

    async with platform.process(database_url, folder(tmp_path, "second")):
        _, thread = await results_thread(platform)
        assert in_order(thread)
        with contextlib.suppress(AssertionError):  # a later round must post nothing more
            await platform.wait(
                lambda: len(platform.thread_posts(results)) > len(QUESTIONS), ONCE_WINDOW
            )
    assert len(platform.thread_posts(results)) == len(QUESTIONS)
    assert len(results_posts(platform)) == 1
