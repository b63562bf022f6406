"""A burst: 500 members answer at once. Every click is acknowledged in time, counted exactly
once, and the question's live counter is edited only every few seconds.

The burst is sized so a busy machine (`make test-stress`) still acknowledges it within the
platform's 3 seconds; `make bench` sends 2,000 clicks within a second and times them
(`burst_p99_ack_ms`, `slack_burst_p99_ack_ms`).

The bot runs in a process of its own, as in production, so the fake platform sending the
clicks does not share its event loop. This is a load test that runs with the rest of the
suite (it takes a few seconds): the `burst` marker only lets it be selected alone
(`pytest -m burst`).
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.service.presenter import COUNTER_INTERVAL as INTERVAL
from storage import SqlRunStore
from tests.platforms.driver import Platform, choice_labels
from tests.platforms.views import SHOWS_NOTHING, SHOWS_REPLY, SHOWS_THINKING, Post

pytestmark = pytest.mark.burst

MEMBERS = 500
STEP = "what-changed"
PATTERN = ["checkable-reward"] * 4 + ["bigger-model"] * 3 + ["more-text"] * 2 + ["better-examples"]
BAR = re.compile(r"^`[█░]+` (\d+) \((\d+)%\) (.+?)(?: ✅)?$")


def bar_counts(text: str) -> dict[str, tuple[int, int]]:
    """The count and percentage of each choice in a reveal's text bars, by label."""
    return {m[3]: (int(m[1]), int(m[2])) for line in text.splitlines() if (m := BAR.match(line))}


async def test_a_burst_of_clicks_is_all_acknowledged_and_counted(
    platform: Platform, database_url: str, tmp_path: Path, store: SqlRunStore
) -> None:
    async with platform.process(database_url, tmp_path):
        question = await platform.reach(STEP)
        expected = await burst_is_acknowledged_and_counted(platform, question, store)
        before = len(platform.posts())
        await platform.click(platform.host, question, question.button(action="reveal"))
        reveal = await platform.post_after(before, "Results: Same brain", timeout=60)
    text = reveal.text
    assert f"{MEMBERS} answered" in text
    counts = bar_counts(text)
    assert sum(count for count, _ in counts.values()) == MEMBERS
    assert counts == {
        label: (expected[choice], round(100 * expected[choice] / MEMBERS))
        for choice, label in choice_labels(STEP).items()
    }


async def burst_is_acknowledged_and_counted(
    platform: Platform, question: Post, store: SqlRunStore
) -> Counter[str]:
    """Every member clicks a choice at once; what they saw and what was stored. The votes."""
    picks = [PATTERN[n % len(PATTERN)] for n in range(MEMBERS)]
    members = [platform.member(f"member-{n}") for n in range(MEMBERS)]
    addresses = {choice: question.button(arg=choice) for choice in set(picks)}
    loop = asyncio.get_running_loop()

    started = loop.time()
    clicks = [(member, addresses[pick]) for member, pick in zip(members, picks, strict=True)]
    sent = await platform.burst(question, clicks)
    replies = await platform.replies(sent, timeout=60)
    answered = f"{MEMBERS} answered"
    await platform.wait(lambda: answered in question.text, 30, "the final count")
    elapsed = loop.time() - started

    acks = [platform.ack(one) for one in sent]
    delays = [ack.seconds for ack in acks]
    assert None not in delays, f"{delays.count(None)} clicks were never acknowledged"
    slowest = max(d for d in delays if d is not None)
    assert slowest < platform.ack_window, f"slowest acknowledgement {slowest:.2f} s"
    assert all(reply.private and "You chose" in reply.text for reply in replies)
    shown = Counter(ack.shows for ack in acks)
    assert set(shown) <= {SHOWS_REPLY, SHOWS_THINKING, SHOWS_NOTHING}, shown
    assert shown[SHOWS_NOTHING] > MEMBERS / 2, shown

    expected = Counter(picks)
    votes = await store.vote_counts(question.run, STEP)
    assert {v.value: v.count for v in votes if v.kind == "choice"} == expected
    assert await store.count_participants(question.run, STEP) == MEMBERS

    edits = platform.edits(question)
    assert 1 <= len(edits) <= math.ceil(elapsed / INTERVAL) + 1, (len(edits), elapsed)
    assert answered in edits[-1].text
    assert all(edit.keeps_buttons for edit in edits)
    return expected
