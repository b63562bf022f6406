"""A whole lesson through the app, every kind of step answered, then members' data commands."""

from __future__ import annotations

from fakes.fake_slack import Call, action_ids, dm_channel
from fakes.slack_driver import ALICE, BOB, HOST, TOTAL, SlackDriver, message_ts


async def walk_whole_lesson(slack: SlackDriver) -> None:
    """Start, answer every step, reveal and move on to the end; then forget-me and export."""
    card = await slack.start()
    for number in range(2, TOTAL + 2):
        host_button = action_ids(slack.fake.messages[message_ts(card)]["blocks"])[-1]
        await slack.click(host_button, ALICE, card)
        await slack.wait_refusals(ALICE, number - 1)
        await answer(slack, card)
        await move_on(slack, card, host_button)
        card = await slack.wait_post(f"Step {number}/{TOTAL}" if number <= TOTAL else "Finished")
    await members_data(slack)


async def members_data(slack: SlackDriver) -> None:
    """A host exports the run into a direct message; a member forgets their answers."""
    assert await slack.command("export", HOST) == 200
    await slack.wait_ephemeral(HOST, "direct message")
    assert BOB.encode() in slack.fake.shared_files(dm_channel(HOST))[0]
    assert await slack.command("forget-me confirm", BOB) == 200
    await slack.wait_ephemeral(BOB, "Done: removed")


async def move_on(slack: SlackDriver, card: Call, host_button: str) -> None:
    """Questions: Reveal, then Next under the reveal. Other steps: `/lesson next`."""
    if not host_button.endswith(":reveal"):
        assert await slack.command("next") == 200
        return
    posted = len(slack.posts())
    await slack.click(host_button, HOST, card)
    reveal = await slack.wait_post("Results: ", after=posted)
    await slack.click(slack.action(reveal, ":next"), HOST, reveal)
    shown = slack.fake.messages[message_ts(reveal)]
    await slack.fake.wait_for(  # its Next goes; a More stays readable
        lambda _: not [i for i in action_ids(shown["blocks"]) if i.endswith(":next")]
    )


async def answer(slack: SlackDriver, card: Call) -> None:
    """Give the step whatever answer it takes, so every kind of call happens."""
    ids = action_ids(slack.fake.messages[message_ts(card)]["blocks"])
    if any(":choose:" in i for i in ids):
        await slack.click(next(i for i in ids if ":choose:" in i), BOB, card)
        await slack.wait_ephemeral(BOB, "You chose")
    elif any(":up:" in i for i in ids):
        await rate_every_attempt(slack, card, BOB)
        await slack.click(next(i for i in ids if ":check:" in i), BOB, card)
        await slack.wait_ephemeral(BOB, "Checker on")
    elif any(i.endswith(":answer") for i in ids):
        await slack.click(next(i for i in ids if i.endswith(":answer")), BOB, card)
        await slack.fake.wait_for(lambda _: slack.fake.calls_to("views.open"))
        await slack.submit(slack.fake.calls_to("views.open")[0].args["view"], "3/4", BOB)
        await slack.wait_ephemeral(BOB, "Try 1:")


async def rate_every_attempt(slack: SlackDriver, card: Call, user: str, thumb: str = "up") -> None:
    """A member gives every attempt of the verifier card the same thumb, one click at a time."""
    ids = action_ids(slack.fake.messages[message_ts(card)]["blocks"])
    for action in [i for i in ids if f":{thumb}:" in i]:
        receipts = len(slack.ephemerals(user, "You gave"))
        await slack.click(action, user, card)
        await slack.fake.wait_for(
            lambda _, seen=receipts: len(slack.ephemerals(user, "You gave")) > seen
        )
