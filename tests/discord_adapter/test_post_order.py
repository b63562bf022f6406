"""The channel reads like the lesson: each post once, in the lesson's order, whatever the timing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.engine import LessonEngine
from bot.service.presenter import UNAVAILABLE
from fakes.fake_discord import CHANNEL_ID, Call, FakeDiscord
from tests.conftest import FakeClock
from tests.discord_adapter.conftest import Launch, MakeEngine
from tests.discord_adapter.helpers import LessonDriver, button, buttons, step_id, title
from tests.slow_drawing import slow_training_chart
from tests.waiting import wait_until

VERIFIER, TOY, AFTER_TOY = "be-the-checker", "train-on-votes", "what-about-writing"
CHECKER_RESULTS = "Results: You're the checker"
WAITING = "is posting in another process; waiting for its turn"


def posting(*titles: str) -> Any:
    """Whether a request posts a lesson message to the channel whose embed title starts so."""

    def matches(call: Call) -> bool:
        posts = call.method == "POST" and call.path == f"/channels/{CHANNEL_ID}/messages"
        embeds = call.body.get("embeds") or [] if posts and isinstance(call.body, dict) else []
        return any(str(e.get("title", "")).startswith(titles) for e in embeds)

    return matches


def lesson_posts(lesson: LessonDriver) -> list[str]:
    """What the channel shows, oldest first: a step's id, or a results message's title."""
    return [step_id(m) or title(m) for m in lesson.messages()]


async def test_next_pressed_while_a_slow_step_is_drawn_waits_for_it(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    await lesson.reach(VERIFIER)
    slow = slow_training_chart(monkeypatch, bot.presenter)
    first = await fake.slash(lesson.host, "next", {})
    await lesson.reveal_after(0)
    await slow.wait_started()
    second = await fake.slash(lesson.host, "next", {})
    await fake.wait_until(lambda: fake.callback_of(second), what="the second Next deferred")
    assert AFTER_TOY not in lesson_posts(lesson)
    slow.released.set()

    assert (await fake.private_reply(first)).content == "Moved on."
    assert (await fake.private_reply(second)).content == "Moved on."
    await lesson.step(AFTER_TOY)
    assert lesson_posts(lesson)[-4:] == [VERIFIER, CHECKER_RESULTS, TOY, AFTER_TOY]


async def test_two_quick_nexts_and_a_timer_post_in_order_and_skip_nothing_unasked(
    fake: FakeDiscord, launch: Launch, clock: FakeClock
) -> None:
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    await lesson.reach_from(await lesson.start(timer=30), VERIFIER)
    slow = fake.delay(posting(CHECKER_RESULTS))
    clock.advance(31)  # the timer is due: it reveals the checker round, unless a Next is first
    nexts = [await fake.slash(lesson.host, "next", {}) for _ in range(2)]
    await slow.wait_arrived()
    slow.released.set()

    assert [(await fake.private_reply(sent)).content for sent in nexts] == ["Moved on."] * 2
    await lesson.step(AFTER_TOY)
    assert lesson_posts(lesson) == [
        "intro", "what-changed", "Results: Same brain, a year later", "three-stages", VERIFIER,
        CHECKER_RESULTS, TOY, AFTER_TOY,
    ]


async def test_processes_starting_during_a_post_leave_one_copy(
    fake: FakeDiscord,
    launch: Launch,
    engines: MakeEngine,
    database_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger="bot.service.posting")
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach("what-changed")
    held = fake.delay(posting("Results: Same brain"))
    revealing = await fake.slash(lesson.host, "reveal", {})
    await held.wait_arrived()

    others = [asyncio.create_task(launch(engines(database_url))) for _ in range(2)]

    async def both_waiting() -> bool:
        return sum(WAITING in record.getMessage() for record in caplog.records) >= 2

    await wait_until(both_waiting, 20, "both new processes waiting for the run's turn")
    held.released.set()
    await asyncio.gather(*others)
    assert "Revealed" in (await fake.private_reply(revealing)).content
    results = [m for m in lesson.messages() if title(m).startswith("Results: Same brain")]
    assert len(results) == 1
    assert [step_id(m) for m in lesson.messages()].count(step_id(question)) == 1


async def test_a_repost_takes_the_buttons_off_the_older_copy(
    fake: FakeDiscord, lesson: LessonDriver
) -> None:
    question = await lesson.reach("what-changed")
    reply = await lesson.command("repost")
    assert "Posted the current step again" in reply.content
    copies = [m for m in lesson.messages() if step_id(m) == "what-changed"]
    assert len(copies) == 2 and copies[0] is question
    await fake.wait_until(
        lambda: "posted again below" in question["content"], what="the older copy redrawn"
    )
    older = {b["custom_id"].split(":")[3]: b.get("disabled", False) for b in buttons(question)}
    newer = {b["custom_id"].split(":")[3]: b.get("disabled", False) for b in buttons(copies[1])}
    assert older["choose"] and older["reveal"]
    assert not newer["choose"] and not newer["reveal"]
    chosen = await lesson.press(fake.member("ann"), copies[1], button(copies[1], action="choose"))
    assert "You chose" in chosen.content


async def test_a_step_lost_to_an_outage_is_posted_once_the_platform_answers(
    fake: FakeDiscord, launch: Launch, engine: LessonEngine
) -> None:
    bot = await launch()
    bot.presenter.retry_first = 0.05
    lesson = LessonDriver(fake, fake.host("hazel"))
    await lesson.reach("what-changed")
    outage = fake.fail("POST", f"/channels/{CHANNEL_ID}/messages", 503, times=4)

    reply = await lesson.command("next")
    assert reply.content == UNAVAILABLE.format(reason="Discord answered HTTP 503")
    shown = await lesson.step("three-stages")
    assert outage.times == 0 and len(fake.failed_with(503)) == 4
    assert lesson_posts(lesson) == [
        "intro", "what-changed", "Results: Same brain, a year later", "three-stages"
    ]
    run_id = int(buttons(shown)[0]["custom_id"].split(":")[1])

    async def remembered() -> bool:
        stored = await engine.step_message(run_id, "three-stages")
        return stored == f"discord:{CHANNEL_ID}:{shown['id']}"

    await wait_until(remembered, what="the step's message remembered, for later edits")
