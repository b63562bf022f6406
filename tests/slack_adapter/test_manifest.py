"""The app manifest creates what the code uses: its command, interactivity, and only the
scopes of the Web API methods the bot calls during a whole lesson."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.slack_adapter.commands import COMMAND
from tests.fakes.fake_slack import Call, action_ids
from tests.slack_adapter.driver import ALICE, BOB, HOST, TOTAL, SlackDriver, message_ts

MANIFEST = Path(__file__).parents[2] / "slack" / "manifest.yml"

# Bot scope each Web API method needs (None: no scope). "upload" is the files v2 upload URL.
METHOD_SCOPES: dict[str, str | None] = {
    "auth.test": None,
    "chat.postMessage": "chat:write",
    "chat.update": "chat:write",
    "chat.postEphemeral": "chat:write",
    "views.open": None,
    "users.info": "users:read",
    "files.getUploadURLExternal": "files:write",
    "files.completeUploadExternal": "files:write",
    "upload": None,
}


def manifest() -> dict[str, Any]:
    """The parsed manifest."""
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_manifest_sets_up_the_command_interactivity_and_socket_mode() -> None:
    app = manifest()
    assert [c["command"] for c in app["features"]["slash_commands"]] == [COMMAND]
    assert app["settings"]["interactivity"]["is_enabled"] is True
    assert app["settings"]["socket_mode_enabled"] is True
    assert app["features"]["bot_user"]["display_name"]


async def test_a_whole_lesson_uses_exactly_the_scopes_the_manifest_asks_for(
    slack: SlackDriver,
) -> None:
    card = await slack.start()
    for number in range(2, TOTAL + 2):
        host_button = action_ids(slack.fake.messages[message_ts(card)]["blocks"])[-1]
        await slack.click(host_button, ALICE, card)
        await slack.fake.wait_for(lambda _, n=number: len(slack.ephemerals(ALICE, "Only")) == n - 1)
        await answer(slack, card)
        await move_on(slack, card, host_button)
        card = await slack.wait_post(f"Step {number}/{TOTAL}" if number <= TOTAL else "finished")

    seen = slack.fake.methods_seen()
    assert seen <= METHOD_SCOPES.keys(), f"add scopes for {seen - METHOD_SCOPES.keys()}"
    needed = {METHOD_SCOPES[method] for method in seen} - {None} | {"commands"}
    assert set(manifest()["oauth_config"]["scopes"]["bot"]) == needed


async def move_on(slack: SlackDriver, card: Call, host_button: str) -> None:
    """Questions: Reveal, then Next under the reveal. Other steps: `/lesson next`."""
    if not host_button.endswith(":reveal"):
        assert await slack.command("next") == 200
        return
    posted = len(slack.posts())
    await slack.click(host_button, HOST, card)
    reveal = await slack.wait_post("Results: ", after=posted)
    await slack.click(slack.action(reveal, ":next"), HOST, reveal)
    await slack.fake.wait_for(
        lambda _: not action_ids(slack.fake.messages[message_ts(reveal)]["blocks"])
    )


async def answer(slack: SlackDriver, card: Call) -> None:
    """Give the step whatever answer it takes, so every kind of call happens."""
    ids = action_ids(slack.fake.messages[message_ts(card)]["blocks"])
    if any(":choose:" in i for i in ids):
        await slack.click(next(i for i in ids if ":choose:" in i), BOB, card)
        await slack.wait_ephemeral(BOB, "You chose")
    elif any(":up:" in i for i in ids):
        await slack.click(next(i for i in ids if ":up:" in i), BOB, card)
        await slack.wait_ephemeral(BOB, "You gave")
        await slack.click(next(i for i in ids if ":check:" in i), BOB, card)
        await slack.wait_ephemeral(BOB, "Checker on")
    elif any(i.endswith(":answer") for i in ids):
        await slack.click(next(i for i in ids if i.endswith(":answer")), BOB, card)
        await slack.fake.wait_for(lambda _: slack.fake.calls_to("views.open"))
        await slack.submit(slack.fake.calls_to("views.open")[0].args["view"], "3/4", BOB)
        await slack.wait_ephemeral(BOB, "Try 1:")
