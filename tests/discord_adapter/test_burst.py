"""A burst: 500 members answer at once. Every click is acknowledged in time, counted exactly
once, and the question's live counter is edited only every few seconds.

The burst is sized so a busy machine (`make test-stress`) still acknowledges it within Discord's
window; `make bench` sends 2,000 clicks within a second and times them (`burst_p99_ack_ms`).

The bot runs in a process of its own (`fakes.discord_bot_process`), as in production, so the
fake Discord sending the clicks does not share its event loop. This is a load test that runs
with the rest of the suite (it takes a few seconds): the `burst` marker only lets it be
selected alone (`pytest -m burst`).
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import LessonCatalog
from bot.service.presenter import COUNTER_INTERVAL as INTERVAL
from fakes.discord_processes import BotProcess, start_bot_process
from fakes.fake_discord import RESPONSE_WINDOW, FakeDiscord
from lessons.schema import PredictionStep
from storage import SqlRunStore
from tests.discord_adapter.helpers import LessonDriver, button, run_of

pytestmark = pytest.mark.burst

MEMBERS = 500
STEP = "what-changed"
PATTERN = ["checkable-reward"] * 4 + ["bigger-model"] * 3 + ["more-text"] * 2 + ["better-examples"]
DIRECT = 4
"""A response that is the reply itself (a click answered while the bot was quiet)."""
THINKING = 5
"""An acknowledgement showing "thinking…" (a click caught waiting when the burst began)."""
QUIET_ACK = 6
"""An acknowledgement showing nothing; the reply follows (clicks during the burst)."""
BAR = re.compile(r"^`[█░]+` (\d+) \(\d+%\) (.+?)(?: ✅)?$")


def bar_counts(text: str) -> dict[str, int]:
    """The count of each choice in a reveal's text bars, by label."""
    return {m[2]: int(m[1]) for line in text.splitlines() if (m := BAR.match(line))}


@pytest.fixture
async def bot_process(
    fake: FakeDiscord, database_url: str, tmp_path: Path
) -> AsyncIterator[BotProcess]:
    """The bot in its own process; stopped with SIGTERM (its counters flushed) after the test."""
    process = await start_bot_process(fake, database_url, tmp_path, "bot", log_level="INFO")
    yield process
    await process.kill(signal.SIGTERM)


async def test_a_burst_of_clicks_is_all_acknowledged_and_counted(
    fake: FakeDiscord, bot_process: BotProcess, store: SqlRunStore
) -> None:
    lesson = LessonDriver(fake, fake.host("hazel"))
    question = await lesson.reach(STEP)
    picks = [PATTERN[n % len(PATTERN)] for n in range(MEMBERS)]
    members = [fake.member(f"member-{n}") for n in range(MEMBERS)]
    loop = asyncio.get_running_loop()

    started = loop.time()
    sent = [
        await fake.click(member, question, button(question, arg=pick))
        for member, pick in zip(members, picks, strict=True)
    ]
    await fake.wait_until(fake.all_replied(sent), timeout=60, what="every reply")
    await fake.wait_until(
        lambda: f"{MEMBERS} answered" in question["content"], timeout=30, what="the final count"
    )
    elapsed = loop.time() - started

    delays = [fake.ack_delay(one) for one in sent]
    assert None not in delays, f"{delays.count(None)} clicks were never acknowledged"
    slowest = max(d for d in delays if d is not None)
    assert slowest < RESPONSE_WINDOW, f"slowest acknowledgement {slowest:.2f} s"
    replies = [await fake.private_reply(one) for one in sent]
    assert all(reply.ephemeral and "You chose" in reply.content for reply in replies)
    kinds = Counter(reply.response_type for reply in replies)
    assert set(kinds) <= {DIRECT, THINKING, QUIET_ACK} and kinds[QUIET_ACK] > MEMBERS / 2, kinds

    run_id = run_of(question)
    expected = Counter(picks)
    stored = {c.value: c.count for c in await store.vote_counts(run_id, STEP) if c.kind == "choice"}
    assert stored == expected
    assert await store.count_participants(run_id, STEP) == MEMBERS

    edits = fake.edits_of(question)
    assert 1 <= len(edits) <= elapsed / INTERVAL + 2, (len(edits), elapsed)
    assert f"{MEMBERS} answered" in edits[-1].body["content"]
    assert all("components" not in edit.body for edit in edits)

    before = len(lesson.messages())
    await lesson.press(lesson.host, question, button(question, action="reveal"))
    text = (await lesson.reveal_after(before))["embeds"][0]["description"]
    assert f"**{MEMBERS} answered**" in text
    counts = bar_counts(text)
    assert sum(counts.values()) == MEMBERS
    assert counts == {label: expected[choice] for choice, label in choice_labels().items()}


def choice_labels() -> dict[str, str]:
    """The question's choices: label by id."""
    step = LessonCatalog().get("rlvr").step_by_id(STEP)
    assert isinstance(step, PredictionStep)
    return {choice.id: choice.label for choice in step.choices}
