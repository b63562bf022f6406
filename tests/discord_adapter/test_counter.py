"""The live counter under a burst of clicks: few edits, the final count shown, replies in time."""

from __future__ import annotations

import asyncio

from bot.discord_adapter import BotOptions
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, button
from tests.fakes.fake_discord import RESPONSE_WINDOW, FakeDiscord

CLICKS = 500
INTERVAL = 0.5


async def test_counter_edits_stay_bounded_under_a_burst(fake: FakeDiscord, launch: Launch) -> None:
    await launch(options=BotOptions(counter_interval=INTERVAL, timer_interval=0.05))
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach("what-changed")
    choice = button(question, arg="checkable-reward")
    members = [fake.member(f"member-{n}") for n in range(CLICKS)]
    loop = asyncio.get_running_loop()

    started = loop.time()
    sent = [await fake.click(member, question, choice) for member in members]
    replies = [await fake.private_reply(one, timeout=30) for one in sent]
    await fake.wait_until(
        lambda: f"{CLICKS} answered" in question["content"], timeout=15, what="the final count"
    )
    elapsed = loop.time() - started

    assert all(reply.ephemeral for reply in replies)
    delays = [reply.callback.at - one.at for reply, one in zip(replies, sent, strict=True)]
    assert max(delays) < RESPONSE_WINDOW, f"slowest acknowledgement {max(delays):.2f} s"
    edits = fake.edits_of(question)
    assert 1 <= len(edits) <= elapsed / INTERVAL + 2, (len(edits), elapsed)
    assert f"{CLICKS} answered" in edits[-1].body["content"]
    assert all(set(edit.body) >= {"content"} and "components" not in edit.body for edit in edits)
