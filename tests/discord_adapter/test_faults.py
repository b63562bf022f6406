"""Discord failing requests: 429s and 500s are retried, and a request Discord gives up on
leaves the bot running with everything stored."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import discord.http
import pytest

from fakes.fake_discord import CHANNEL_ID, FakeDiscord
from storage import SqlRunStore
from tests.discord_adapter.helpers import (
    LessonDriver,
    button,
    buttons,
    run_of,
    step_id,
    title,
)

POSTS = rf"/channels/{CHANNEL_ID}/messages"
STEP = "what-changed"


class ShortPauses:
    """`asyncio` as discord.http sees it, with its retry pauses a hundred times shorter."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        """A hundredth of the pause discord.py asked for."""
        return await asyncio.sleep(delay / 100, result)


@pytest.fixture
def short_retry_pauses(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """discord.py's five retries of a 500 (1 + 3 + 5 + 7 + 9 s apart) in a quarter second."""
    monkeypatch.setattr(discord.http, "asyncio", ShortPauses())
    yield


async def answer(lesson: LessonDriver, question: dict[str, Any], *names: str) -> None:
    """Members choose on a question, each waiting for the private confirmation."""
    for name in names:
        reply = await lesson.press(
            lesson.fake.member(name), question, button(question, arg="more-text")
        )
        assert "You chose" in reply.content


async def choices_stored(store: SqlRunStore, question: dict[str, Any]) -> int:
    """How many members' choices are stored for the question."""
    return sum(
        c.count for c in await store.vote_counts(run_of(question), STEP) if c.kind == "choice"
    )


async def test_a_rate_limited_counter_edit_still_shows_the_final_count(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    fake = lesson.fake
    question = await lesson.reach(STEP)
    fake.fail("PATCH", rf"{POSTS}/{question['id']}", 429, retry_after=0.3)

    await answer(lesson, question, "ann", "ben", "cat")
    await fake.wait_until(lambda: "3 answered" in question["content"], what="the final count")

    (limited,) = fake.failed_with(429)
    assert "answered" in limited.body["content"]
    assert await choices_stored(store, question) == 3


async def test_a_step_whose_first_post_fails_still_appears(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    fake = lesson.fake
    question = await lesson.reach(STEP)
    await answer(lesson, question, "ann", "ben")
    fake.fail("POST", POSTS, 500)

    reply = await lesson.command("next")
    assert reply.content == "Moved on."
    assert len(fake.failed_with(500)) == 1
    results = next(m for m in lesson.messages() if title(m).startswith("Results"))
    assert "**2 answered**" in results["embeds"][0]["description"]
    assert step_id(lesson.messages()[-1]) == "three-stages"
    assert await choices_stored(store, question) == 2


async def test_the_bot_keeps_running_after_discord_gives_up(
    lesson: LessonDriver, store: SqlRunStore, short_retry_pauses: None
) -> None:
    fake = lesson.fake
    question = await lesson.reach(STEP)
    await answer(lesson, question, "ann")
    fake.fail("POST", POSTS, 500, times=5)

    failed = await lesson.command("next")
    assert failed.ephemeral and "HTTP 500" in failed.content and "keeps trying" in failed.content
    assert len(fake.failed_with(500)) == 5

    shown = await lesson.step("three-stages")
    shown_in_order = [m for m in lesson.messages() if title(m).startswith("Results") or m is shown]
    assert len(shown_in_order) == 2 and shown_in_order[-1] is shown
    assert [step_id(m) for m in lesson.messages()].count("three-stages") == 1
    assert await choices_stored(store, question) == 1
    later = await lesson.reach_from(shown, "be-the-checker")
    assert later["embeds"][0]["title"] == "You're the checker"


async def reveal_refused(lesson: LessonDriver) -> dict[str, Any]:
    """Two members answer the question; its reveal is stored, but its results refused (403)."""
    question = await lesson.reach(STEP)
    await answer(lesson, question, "ann", "ben")
    lesson.fake.fail("POST", POSTS, 403)
    refused = await lesson.command("reveal")
    assert refused.ephemeral and "HTTP 403" in refused.content
    assert "/lesson repost" in refused.content and "/lesson next" in refused.content
    assert not any(title(m).startswith("Results") for m in lesson.messages())
    return question


def assert_results_of_two(fake: FakeDiscord, results: dict[str, Any]) -> None:
    """The message shows the two answers' results, with the chart attached."""
    assert title(results).startswith("Results")
    assert "**2 answered**" in results["embeds"][0]["description"]
    assert results["embeds"][0]["image"]["url"] == "attachment://chart.png"
    assert [upload.filename for upload in fake.uploads[int(results["id"])]] == ["chart.png"]


async def test_results_refused_with_403_are_posted_once_by_a_repost(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    question = await reveal_refused(lesson)
    reposted = await lesson.command("repost")
    assert "Posted the current step again" in reposted.content
    (results,) = [m for m in lesson.messages() if title(m).startswith("Results")]
    assert_results_of_two(lesson.fake, results)
    assert [step_id(m) for m in lesson.messages()].count(STEP) == 1
    assert await choices_stored(store, question) == 2


async def test_results_refused_with_403_are_posted_when_the_host_moves_on(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    question = await reveal_refused(lesson)
    posted = len(lesson.messages())
    assert (await lesson.command("next")).content == "Moved on."
    results, shown = lesson.messages()[posted:]
    assert_results_of_two(lesson.fake, results)
    assert step_id(shown) == "three-stages"
    assert [b["disabled"] for b in buttons(results) if ":next" in b["custom_id"]] == [True]
    assert await choices_stored(store, question) == 2
