"""The lesson's recall step on Slack: the channel's before and after, in counts."""

from __future__ import annotations

from fakes.fake_slack import block_texts
from fakes.slack_driver import ALICE, BOB, CHANNEL, TOTAL, SlackDriver, step_number

RIGHT = "A new training stage that rewards answers a program can check"
BIGGER = "A bigger model, or a new kind of model"
CARA = "UCARA"


async def test_the_recall_reveal_shows_who_moved_held_and_left(slack: SlackDriver) -> None:
    await slack.start()
    first = await slack.go_to_step(step_number("what-changed"))
    for member, label in ((ALICE, BIGGER), (BOB, RIGHT), (CARA, RIGHT)):
        await slack.click(slack.button(first, label), member, first)
        await slack.wait_ephemeral(member, f"You chose *{label}")
    for number in range(step_number("what-changed") + 1, step_number("what-changed-again") + 1):
        assert await slack.command("next") == 200
        again = await slack.wait_post(f"Step {number}/{TOTAL}", channel=CHANNEL)
    assert "Same brain, a year later: again" in block_texts(again.args["blocks"])
    for member, label in ((ALICE, RIGHT), (BOB, BIGGER)):
        await slack.click(slack.button(again, label), member, again)
        await slack.wait_ephemeral(member, f"You chose *{label}")

    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: Same brain, a year later: again")
    text = block_texts(reveal.args["blocks"])
    assert (
        "Before → after, among the 2 members who answered both times: "
        "1 moved to the right answer, 0 held it, 1 left it."
    ) in text
    assert "1 answered only the first time and 0 only this time" in text

    assert await slack.command("results", ALICE) == 200
    summary = await slack.wait_ephemeral(ALICE, "Results: RLVR")
    assert "Before → after: 1 moved to the right answer, 0 held it, 1 left it" in block_texts(
        summary.args["blocks"]
    )
