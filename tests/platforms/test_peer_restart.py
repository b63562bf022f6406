"""A peer round whose bot is killed (SIGKILL) between its two votes, on Discord and Slack.

The bot runs in a process of its own on the test's database (an SQLite file unless a server
is given). Four members answer, two of them right, so the host's reveal holds the answer back
and opens a second vote under its own card, with reasons in a thread. Two members answer
again, then the process is killed. A new process on the same database takes the other two
members' clicks on the posted second-vote card, and the host's reveal shows both votes side
by side: the first answers given before the kill count. A process killed after posting the
second-vote card but before its thread leaves the reasons to the next process, which posts
each once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons.schema import PeerRoundStep
from tests.platforms.driver import LESSON, Person, Platform, Sent
from tests.platforms.test_assigned_processes import folder
from tests.platforms.views import Post

pytestmark = pytest.mark.slow
"""Waits on bot processes for seconds at a time: spread through the run."""

STEP = "code-vs-eulogy"
PEER_ROUND = LESSON.step_by_id(STEP)
assert isinstance(PEER_ROUND, PeerRoundStep)
LABELS = {choice.id: choice.label for choice in PEER_ROUND.choices}
AUTHORS_REASONS = {choice.id: choice.reason for choice in PEER_ROUND.choices}
RIGHT, DATA, FEELINGS = "checker-for-code", "more-data", "no-feelings"
SPLIT_TOLD = "The channel is split, so the answer stays hidden"
BEFORE_AFTER = (
    "Right: 50% at the first answer → 75% after discussion, among the 4 who answered both times."
)
MOVES = "Wrong → right: 2 · right → wrong: 1 · stayed right: 1 · stayed wrong: 0."
GAIN = "Normalized gain (after − before) / (1 − before): 0.50."


def actions(post: Post, action: str) -> list[bool]:
    """Whether each of the post's buttons for `action` can be clicked."""
    return [button.enabled for button in post.buttons if button.target.action == action]


async def first_vote(lesson: Platform, card: Post, member: Person, choice: str) -> None:
    """A member's first answer, acknowledged privately."""
    reply = await lesson.press(member, card, card.button(action="choose", arg=choice))
    assert reply.private and f"You chose {lesson.bold(LABELS[choice])}" in reply.text, reply.text


async def second_vote(
    lesson: Platform, card: Post, member: Person, choice: str, first: str
) -> None:
    """A member's second answer, acknowledged as kept or changed from their first."""
    reply = await lesson.press(member, card, card.button(action="again", arg=choice))
    chosen = lesson.bold(LABELS[choice])
    told = (
        f"You kept your answer: {chosen}."
        if choice == first
        else f"You changed your answer to {chosen} (first: {LABELS[first]})."
    )
    assert reply.private and told in reply.text, reply.text


async def discussed(
    lesson: Platform, first_card: Post, chosen: set[str]
) -> tuple[Sent, Post]:
    """The host's reveal of a split channel: the second-vote card, a reason per chosen answer
    in its thread (the author's, as no member gave one); the command and that card."""
    before = len(lesson.posts())
    revealed = await lesson.command("reveal")
    second_card = await lesson.step_after(before)
    assert second_card.step == STEP and "The channel is split" in second_card.text
    assert actions(second_card, "choose") == [] and all(actions(second_card, "again"))
    await lesson.wait(
        lambda: all(
            any(reason in post.text for post in lesson.thread_posts(second_card))
            for reason in (AUTHORS_REASONS[choice] for choice in chosen)
        ),
        what="a reason for each chosen answer in the thread",
    )
    assert not any(actions(first_card, "choose")), first_card.buttons  # the first vote closed
    return revealed, second_card


async def test_a_second_vote_goes_on_after_the_bot_is_killed_between_the_votes(
    platform: Platform, database_url: str, tmp_path: Path
) -> None:
    ines, jonah, kirra, lior = (platform.member(n) for n in ("Ines", "Jonah", "Kirra", "Lior"))
    first = {ines: RIGHT, jonah: RIGHT, kirra: DATA, lior: FEELINGS}
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        first_card = await platform.reach(STEP)
        for member, choice in first.items():
            await first_vote(platform, first_card, member, choice)
        first_reveal, second_card = await discussed(platform, first_card, set(first.values()))
        await second_vote(platform, second_card, ines, RIGHT, first[ines])
        await second_vote(platform, second_card, kirra, RIGHT, first[kirra])
        await bot.crash()

    posts_at_crash = len(platform.posts())
    thread_at_crash = [post.text for post in platform.thread_posts(second_card)]
    async with platform.process(database_url, folder(tmp_path, "second")):
        await second_vote(platform, second_card, jonah, DATA, first[jonah])
        await second_vote(platform, second_card, lior, RIGHT, first[lior])
        await platform.command("reveal")
        results = await platform.post_after(posts_at_crash, "Right: ")

    told = platform.told_in_answer(first_reveal)  # a Slack command is answered in the channel
    assert all(SPLIT_TOLD in reply.text for reply in told), told
    for line in (BEFORE_AFTER, MOVES, GAIN):
        assert line in results.text, results.text
    assert "answered only the first time" not in results.text
    assert [post.text for post in platform.posts()[posts_at_crash:]] == [results.text]
    assert [post.text for post in platform.thread_posts(second_card)] == thread_at_crash
    assert "4 answered" in second_card.text, second_card.text  # closed, all four counted
    assert not any(actions(second_card, "again")), second_card.buttons


async def test_reasons_a_crash_kept_from_the_thread_are_posted_by_the_next_process(
    platform: Platform, database_url: str, tmp_path: Path
) -> None:
    ines, jonah, kirra, lior = (platform.member(n) for n in ("Ines", "Jonah", "Kirra", "Lior"))
    first = {ines: RIGHT, jonah: RIGHT, kirra: DATA, lior: FEELINGS}
    chosen = {AUTHORS_REASONS[choice] for choice in first.values()}
    async with platform.process(database_url, folder(tmp_path, "first")) as bot:
        first_card = await platform.reach(STEP)
        for member, choice in first.items():
            await first_vote(platform, first_card, member, choice)
        held = platform.park_thread_post(1)
        before = len(platform.posts())
        await platform.command("reveal")
        second_card = await platform.step_after(before)
        await held.wait_arrived(30.0)
        await bot.crash()
    assert platform.thread_posts(second_card) == []

    async with platform.process(database_url, folder(tmp_path, "second")):
        thread = await platform.wait(
            lambda: (posts := platform.thread_posts(second_card)) and len(posts) >= 3 and posts,
            30.0,
            "the thread's reasons posted by the next process",
        )
        await second_vote(platform, second_card, ines, RIGHT, first[ines])
    assert {reason for reason in chosen if any(reason in p.text for p in thread)} == chosen
    assert len(platform.thread_posts(second_card)) == len(chosen)  # each posted once
