"""The mechanism, live, on Slack: a toy trained on this channel's votes, the GRPO group."""

from __future__ import annotations

import json

from fakes.fake_slack import block_texts
from fakes.slack_driver import ALICE, BOB, SlackDriver, step_number

VERIFIER_STEP = step_number("be-the-checker")
FREE_ANSWER_STEP = step_number("your-turn")
RATERS = (ALICE, BOB, "U0CAROL")


async def test_the_toy_learns_what_this_channel_liked(slack: SlackDriver) -> None:
    await slack.start()
    exercise = await slack.go_to_step(VERIFIER_STEP)
    for user in RATERS:
        assert await slack.click(slack.action(exercise, ":up:polished"), user, exercise) == 200
        await slack.wait_ephemeral(user, "👍")
    toy = await slack.go_to_step(VERIFIER_STEP + 1)
    text = block_texts(toy.args["blocks"])
    assert "Train a tiny model" in text
    assert "*Thumbs-up:* it ends up picking *The polished one*" in text
    assert "*Checker:* it ends up picking *The second look*" in text
    assert "The polished one 100%, others 0%" in text and "Assumptions:" in text
    assert "trained on this channel's votes" in text and "not a real language model" in text
    await slack.fake.wait_for(
        lambda _: any("Toy softmax policy" in title for title in uploaded_titles(slack))
    )


def uploaded_titles(slack: SlackDriver) -> list[str]:
    """Titles of every file shared through the files v2 flow."""
    calls = slack.fake.calls_to("files.completeUploadExternal")
    files = [
        json.loads(c.args["files"]) if isinstance(c.args["files"], str) else c.args["files"]
        for c in calls
    ]
    return [str(f.get("title") or "") for group in files for f in group]


async def test_the_free_answer_reveal_shows_the_channel_as_a_grpo_group(
    slack: SlackDriver,
) -> None:
    await slack.start()
    card = await slack.go_to_step(FREE_ANSWER_STEP)
    view = await slack.open_answer_form(card)
    answers = {ALICE: "3/4", BOB: "2/3", "U0XAVI": "0.75", "U0YUKI": "1/2"}
    for user, answer in answers.items():
        assert await slack.submit(view, answer, user) == 200
        await slack.wait_ephemeral(user, "Try 1:")
    assert await slack.command("reveal") == 200
    reveal = await slack.wait_post("Results: Your turn")
    text = block_texts(reveal.args["blocks"])
    assert "GRPO group" in text and "*2 of 4* earned reward 1" in text
    assert not any(user in text for user in answers)
