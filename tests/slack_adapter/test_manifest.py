"""The app manifests (Socket Mode and HTTP) create what the code uses: its command,
interactivity, and only the scopes of the Web API methods the bot calls during a whole lesson
and the members' data commands (forget-me, export)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.service.commands import VERBS
from bot.slack_adapter import scopes
from bot.slack_adapter.events_route import EVENTS_PATH
from bot.slack_adapter.listeners import COMMAND
from fakes.slack_driver import SlackDriver
from tests.slack_adapter.lesson_walk import walk_whole_lesson

MANIFESTS = Path(__file__).parents[2] / "slack"
SOCKET_MODE = "manifest.yml"
HTTP = "manifest.http.yml"
REQUEST_URL = f"https://YOUR-HOST{EVENTS_PATH}"

# What the fake Web API records besides methods: the files v2 upload URL and response_urls.
METHOD_SCOPES: dict[str, str | None] = {**scopes.METHOD_SCOPES, "upload": None, "respond": None}


def manifest(name: str) -> dict[str, Any]:
    """A parsed manifest."""
    loaded = yaml.safe_load((MANIFESTS / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@pytest.mark.parametrize("name", [SOCKET_MODE, HTTP])
def test_the_manifest_sets_up_the_command_and_interactivity(name: str) -> None:
    app = manifest(name)
    assert [c["command"] for c in app["features"]["slash_commands"]] == [COMMAND]
    assert app["settings"]["interactivity"]["is_enabled"] is True
    assert app["features"]["bot_user"]["display_name"]
    home = app["features"]["app_home"]  # members see their own steps in the Messages tab
    assert home["messages_tab_enabled"] is True and home["messages_tab_read_only_enabled"] is True


@pytest.mark.parametrize("name", [SOCKET_MODE, HTTP])
def test_the_command_hint_lists_every_verb_as_it_is_typed(name: str) -> None:
    (command,) = manifest(name)["features"]["slash_commands"]
    assert command["usage_hint"] == " | ".join(verb.usage for verb in VERBS)


def test_the_socket_mode_manifest_needs_no_request_url() -> None:
    app = manifest(SOCKET_MODE)
    assert app["settings"]["socket_mode_enabled"] is True
    assert "request_url" not in app["settings"]["interactivity"]
    assert all("url" not in command for command in app["features"]["slash_commands"])


def test_the_http_manifest_sends_commands_and_clicks_to_the_events_route() -> None:
    app = manifest(HTTP)
    assert app["settings"]["socket_mode_enabled"] is False
    assert app["settings"]["interactivity"]["request_url"] == REQUEST_URL
    assert [c["url"] for c in app["features"]["slash_commands"]] == [REQUEST_URL]


def test_both_manifests_differ_only_in_how_requests_arrive() -> None:
    socket_mode, http = manifest(SOCKET_MODE), manifest(HTTP)
    for app in (socket_mode, http):
        app["settings"]["interactivity"].pop("request_url", None)
        app["settings"].pop("socket_mode_enabled")
        for command in app["features"]["slash_commands"]:
            command.pop("url", None)
    assert socket_mode == http


async def test_a_whole_lesson_uses_exactly_the_scopes_the_manifests_ask_for(
    slack: SlackDriver,
) -> None:
    await walk_whole_lesson(slack)
    seen = slack.fake.methods_seen()
    assert seen <= METHOD_SCOPES.keys(), f"add scopes for {seen - METHOD_SCOPES.keys()}"
    needed = {METHOD_SCOPES[method] for method in seen} - {None} | {scopes.COMMANDS_SCOPE}
    for name in (SOCKET_MODE, HTTP):
        assert set(manifest(name)["oauth_config"]["scopes"]["bot"]) == needed, name
