"""Several places at once: a channel and a thread, one active run each."""

from __future__ import annotations

from fakes.fake_discord import CHANNEL_ID, THREAD_ID, FakeDiscord
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver


async def test_runs_in_a_channel_and_a_thread_at_once(fake: FakeDiscord, launch: Launch) -> None:
    await launch()
    host = fake.host("hazel")
    channel = LessonDriver(fake, host, CHANNEL_ID)
    thread = LessonDriver(fake, host, THREAD_ID)
    await channel.start()
    in_thread = await thread.start()
    assert any(c.path == f"/channels/{THREAD_ID}/messages" for c in fake.calls)
    assert in_thread["content"].startswith("**Step 1 of ") and "run 2" in in_thread["content"]

    busy = await channel.command("start")
    assert busy.ephemeral and "already running" in busy.content

    stopped = await thread.command("stop")
    assert stopped.ephemeral and "Stopped" in stopped.content
    assert thread.messages()[-1]["embeds"][0]["title"].startswith("Results")
    moved = await channel.command("next")
    assert moved.ephemeral and moved.content == "Moved on."
    await channel.step("what-changed")
