"""Reading what the adapter needs out of Slack's request bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Place

PLATFORM = "slack"


@dataclass(frozen=True)
class Actor:
    """Who acted, where: the user and the channel a request came from."""

    user_id: str
    name: str
    channel: str
    workspace: str
    response_url: str = ""

    @property
    def place(self) -> Place:
        """The engine's place for this channel."""
        return Place(PLATFORM, self.workspace, self.channel)


def command_actor(command: dict[str, Any]) -> Actor:
    """The actor of a slash command (form fields)."""
    return Actor(
        user_id=command["user_id"],
        name=command.get("user_name", ""),
        channel=command["channel_id"],
        workspace=command.get("team_id", ""),
        response_url=command.get("response_url", ""),
    )


def interaction_actor(body: dict[str, Any], channel: str = "") -> Actor:
    """The actor of a block_actions or view_submission payload."""
    user = body.get("user") or {}
    channel = channel or (body.get("channel") or {}).get("id", "")
    channel = channel or (body.get("container") or {}).get("channel_id", "")
    return Actor(
        user_id=user["id"],
        name=user.get("username") or user.get("name", ""),
        channel=channel,
        workspace=(body.get("team") or {}).get("id", "") or user.get("team_id", ""),
        response_url=body.get("response_url", ""),
    )


def clicked_message_ts(body: dict[str, Any]) -> str | None:
    """The ts of the message whose button was clicked, if the click came from a message."""
    message = body.get("message") or {}
    ts = message.get("ts") or (body.get("container") or {}).get("message_ts")
    return str(ts) if ts else None
