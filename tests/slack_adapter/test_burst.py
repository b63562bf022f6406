"""500 members clicking at once: every click acked in time, every vote counted exactly.

The burst is sized so a busy machine (`make test-stress`) still acks it within Slack's 3 s;
`make bench` sends 2,000 signed clicks within a second and times them (`slack_burst_p99_ack_ms`).
"""

from __future__ import annotations

import math
import time

from bot.engine import parse_address
from bot.slack_adapter import SlackBot
from fakes.fake_slack import block_texts
from fakes.slack_burst import fire
from fakes.slack_driver import ACK_DEADLINE, SlackDriver, message_ts
from storage import SqlRunStore
from tests.waiting import wait_until

MEMBERS = 500
CONNECTIONS = 100
COUNTER_INTERVAL = 1.0
CHOICES = ("bigger-model", "checkable-reward", "more-text", "better-examples")
STEP = "what-changed"
EACH = MEMBERS // len(CHOICES)


async def test_a_burst_of_clicks_is_acked_in_time_and_counted_exactly(
    slack: SlackDriver, slack_bot: SlackBot, store: SqlRunStore
) -> None:
    slack_bot.presenter.counters.interval = COUNTER_INTERVAL
    await slack.start()
    question = await slack.go_to_step(2)
    ts = message_ts(question)
    buttons = [slack.action(question, f":choose:{choice}") for choice in CHOICES]
    run_id = parse_address(buttons[0]).run_id
    clicks = [(buttons[n % len(CHOICES)], f"UBURST{n:05d}") for n in range(MEMBERS)]

    started = time.monotonic()
    acks = await fire(slack, clicks, CONNECTIONS)
    assert [a.status for a in acks] == [200] * MEMBERS
    slowest = max(a.seconds for a in acks)
    assert slowest < ACK_DEADLINE, f"the slowest ack took {slowest:.2f} s"

    async def all_votes_stored() -> bool:
        counts = {v.value: v.count for v in await store.vote_counts(run_id, STEP)}
        return counts == {choice: EACH for choice in CHOICES}

    await wait_until(all_votes_stored, timeout=60, what=f"{MEMBERS} votes, {EACH} per choice")
    await slack.fake.wait_for(
        lambda _: f"{MEMBERS} answered" in block_texts(slack.fake.messages[ts]["blocks"])
    )
    elapsed = time.monotonic() - started
    updates = [c for c in slack.fake.calls_to("chat.update") if c.args["ts"] == ts]
    assert len(updates) <= math.ceil(elapsed / COUNTER_INTERVAL) + 1
    await slack.fake.wait_for(lambda _: len(receipts(slack)) == MEMBERS, timeout=60)
    await reveal_shows_exact_counts(slack)


def receipts(slack: SlackDriver) -> set[str]:
    """The burst members who got their private "You chose" reply."""
    return {
        c.args["user"]
        for c in slack.fake.private_replies()
        if c.args["user"].startswith("UBURST") and "You chose" in c.args["text"]
    }


async def reveal_shows_exact_counts(slack: SlackDriver) -> None:
    """The reveal's bars carry exactly a quarter of the members on each choice."""
    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: Same brain", timeout=60)
    text = block_texts(reveal.args["blocks"])
    assert f"{MEMBERS} answered" in text
    assert text.count(f"` {EACH} (25%) ") == len(CHOICES)
