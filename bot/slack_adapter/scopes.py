"""The Slack Web API methods the bot calls and the bot scope each needs: the one list.

Data, not wiring: the manifests and their tests read it; the running bot never imports it.

Both app manifests in `slack/` request exactly the scopes this list needs, and
`tests/test_docs.py` fails when the code calls a method missing here or a manifest drifts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

COMMANDS_SCOPE = "commands"
"""The scope that lets the app own a slash command (`/lesson`)."""

METHOD_SCOPES: dict[str, str | None] = {
    "auth.test": None,  # bolt, at start: who the bot is
    "chat.postMessage": "chat:write",  # steps, reveals, results
    "chat.update": "chat:write",  # live counters, closed questions
    "chat.postEphemeral": "chat:write",  # private replies without a response_url
    "views.open": None,  # the answer form
    "users.info": "users:read",  # a host (admin or owner)? the member's locale
    "conversations.open": "im:write",  # direct messages: exports, own steps, reminders
    "files.getUploadURLExternal": "files:write",  # charts (PNG) and exports (CSV)
    "files.completeUploadExternal": "files:write",
}
"""Each Web API method the bot calls, with the bot scope it needs (None: no scope)."""

SDK_HELPERS: dict[str, tuple[str, ...]] = {
    "files_upload_v2": ("files.getUploadURLExternal", "files.completeUploadExternal"),
}
"""slack-sdk helpers that call several Web API methods."""

LIBRARY_CALLS = ("auth.test",)
"""Methods bolt calls on the bot's behalf, which the bot's own source does not name."""

CALL = re.compile(r"\.((?:auth|chat|conversations|files|users|views|reactions|pins|team|im|"
                  r"channels|groups|reminders|bookmarks|usergroups|dnd|emoji|search)_\w+)\(")


def bot_scopes() -> set[str]:
    """The bot scopes an app manifest must request: those of every method, and the command."""
    return {scope for scope in METHOD_SCOPES.values() if scope} | {COMMANDS_SCOPE}


def methods_called(sources: Iterable[str]) -> set[str]:
    """The Web API methods that Python sources call through an `AsyncWebClient`."""
    methods = set(LIBRARY_CALLS)
    for source in sources:
        for name in CALL.findall(source):
            if name in SDK_HELPERS:
                methods.update(SDK_HELPERS[name])
            else:
                group, method = name.split("_", 1)
                methods.add(f"{group}.{method}")
    return methods
