"""Who sent a Slack request: the service's actor (with its host rights), and how to answer them.

Slack repeats a request it thinks went unanswered (X-Slack-Retry-Num), with the same body,
and behind a load balancer the repeat may reach another process. Every slash command, button
click and modal submission carries a `trigger_id` that Slack issues once per interaction, so
that is the delivery key the service claims in the database; a click without one is keyed by
its user and `action_ts`. A retry whose original never arrived is still handled.

Each member is answered in their own Slack language, looked up once per member
(`bot.service.member_locales`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.model import Place
from bot.service import Actor, Delivery
from bot.slack_adapter.host_rights import HostRights

PLATFORM = "slack"
DIRECT_MESSAGE_PREFIX = "D"
@dataclass(frozen=True)
class SlackRequest:
    """One request's actor, and what answering them takes: its response_url and trigger."""

    actor: Actor
    response_url: str = ""
    trigger_id: str = ""
    message_ts: str = ""
    """The message a button was clicked on, where it is one of the channel's messages."""

    @property
    def channel(self) -> str:
        """The channel the request came from."""
        return self.actor.channel

    @property
    def user_id(self) -> str:
        """The member who sent it."""
        return self.actor.user_id

    @property
    def in_direct_message(self) -> bool:
        """Whether it came from the member's direct message with the app (ids start with D)."""
        return self.channel.startswith(DIRECT_MESSAGE_PREFIX)


def command_request(command: dict[str, Any], hosts: HostRights) -> SlackRequest:
    """The request of a slash command (form fields)."""
    place = Place(PLATFORM, command.get("team_id", ""), command["channel_id"])
    actor = hosts.actor(command["user_id"], command.get("user_name", ""), place)
    return SlackRequest(actor, text_of(command, "response_url"), text_of(command, "trigger_id"))


def interaction_request(body: dict[str, Any], hosts: HostRights, channel: str = "") -> SlackRequest:
    """The request of a block_actions or view_submission payload."""
    user = body.get("user") or {}
    channel = channel or (body.get("channel") or {}).get("id", "")
    channel = channel or (body.get("container") or {}).get("channel_id", "")
    team = (body.get("team") or {}).get("id", "") or user.get("team_id", "")
    name = user.get("username") or user.get("name", "")
    actor = hosts.actor(user["id"], name, Place(PLATFORM, team, channel))
    url, trigger = text_of(body, "response_url"), text_of(body, "trigger_id")
    return SlackRequest(actor, url, trigger, clicked_message(body))


def clicked_message(body: dict[str, Any]) -> str:
    """The ts of the message that carries the clicked button; "" for any other request."""
    clicked = {action.get("action_id") for action in body.get("actions") or []}
    blocks = (body.get("message") or {}).get("blocks") or []
    held = {item.get("action_id") for block in blocks for item in block.get("elements") or []}
    return text_of(body.get("container") or {}, "message_ts") if clicked & held else ""


def text_of(fields: dict[str, Any], name: str) -> str:
    """A field of a request as text; "" where it is missing."""
    return str(fields.get(name) or "")


def delivery_key(body: dict[str, Any]) -> str | None:
    """What identifies one user interaction across deliveries, if anything does."""
    if body.get("trigger_id"):
        return f"trigger:{body['trigger_id']}"
    actions = body.get("actions") or []
    if actions and actions[0].get("action_ts"):
        user = (body.get("user") or {}).get("id", "")
        return f"action:{user}:{actions[0]['action_ts']}"
    return None


def delivery_of(body: dict[str, Any]) -> Delivery | None:
    """The request's delivery for the service to claim; None where nothing identifies it."""
    key = delivery_key(body)
    return Delivery(key) if key is not None else None
