"""The app manifest creates what the code uses: its command, interactivity, and only the
scopes of the Web API methods the bot calls during a whole lesson and the members' data
commands (forget-me, export)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.slack_adapter.commands import COMMAND
from fakes.slack_driver import SlackDriver
from tests.slack_adapter.lesson_walk import walk_whole_lesson

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
    "conversations.open": "im:write",
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
    await walk_whole_lesson(slack)
    seen = slack.fake.methods_seen()
    assert seen <= METHOD_SCOPES.keys(), f"add scopes for {seen - METHOD_SCOPES.keys()}"
    needed = {METHOD_SCOPES[method] for method in seen} - {None} | {"commands"}
    assert set(manifest()["oauth_config"]["scopes"]["bot"]) == needed
