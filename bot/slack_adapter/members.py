"""Who sent a Slack request: the service's actor (with its host rights), and how to answer them.

Slack repeats a request it thinks went unanswered (X-Slack-Retry-Num), with the same body,
and behind a load balancer the repeat may reach another process. Every slash command, button
click and modal submission carries a `trigger_id` that Slack issues once per interaction, so
that is the delivery key the service claims in the database; a click without one is keyed by
its user and `action_ts`. A retry whose original never arrived is still handled.

Each member is answered in their own Slack language: `MemberLocales` asks users.info once per
member and remembers the answer for `LOCALE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.model import Place
from bot.service import Actor, Delivery
from bot.slack_adapter.host_rights import HostRights

PLATFORM = "slack"
DIRECT_MESSAGE_PREFIX = "D"
LOCALE_SECONDS = 600.0
"""How long a member's looked-up locale stands: a language changed in Slack counts within it."""
LOCALE_PATIENCE = 0.5
"""Seconds a request waits for users.info before it speaks English (the answer still counts
for the member's next requests once it arrives)."""
MAX_LOCALES = 10_000
MAX_LOOKUPS = 8
"""Look-ups in flight at most: a member beyond them is answered in English at once."""

LocaleLookup = Callable[[str], Awaitable[str | None]]
"""A member's Slack locale ("es-ES"; "" when Slack names none); None when the look-up failed."""


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


class MemberLocales:
    """Each member's Slack locale, looked up once and remembered for `seconds`.

    Requests that arrive together from one member share one look-up. A look-up that fails is
    not remembered, and one that is slow is not waited for past `patience`: the member is
    answered in English meanwhile, as is a member whose look-up would exceed `most` in
    flight. Under a burst a request does not wait at all (`wait=False`); the member is looked
    up once the burst is acknowledged (`learn`). At most `size` members are remembered, the
    least recently looked up forgotten first.
    """

    def __init__(
        self,
        lookup: LocaleLookup,
        seconds: float = LOCALE_SECONDS,
        size: int = MAX_LOCALES,
        patience: float = LOCALE_PATIENCE,
        clock: Callable[[], float] = time.monotonic,
        most: int = MAX_LOOKUPS,
    ) -> None:
        self.lookup = lookup
        self.seconds = seconds
        self.size = size
        self.patience = patience
        self.clock = clock
        self.most = most
        self._line = asyncio.Semaphore(most)
        self._known: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._asking: dict[str, asyncio.Future[str | None]] = {}

    async def locale(self, user_id: str, wait: bool = True) -> str:
        """The member's locale as remembered or (with `wait`) looked up; "" if Slack cannot say."""
        known = self._remembered(user_id)
        if known is not None or not wait:
            return known or ""
        asking = self._asking.get(user_id)
        if asking is None:
            if len(self._asking) >= self.most:
                return ""
            asking = self._asking[user_id] = asyncio.ensure_future(self._ask(user_id))
        try:
            return await asyncio.wait_for(asyncio.shield(asking), self.patience) or ""
        except TimeoutError:
            return ""

    async def learn(self, user_id: str) -> None:
        """Look the member up unless remembered or asked already, `most` at a time at most."""
        async with self._line:
            if self._remembered(user_id) is None and user_id not in self._asking:
                await self.locale(user_id)

    def _remembered(self, user_id: str) -> str | None:
        known = self._known.get(user_id)
        return known[0] if known is not None and self.clock() - known[1] < self.seconds else None

    def remembered(self) -> int:
        """How many members' locales are remembered now."""
        return len(self._known)

    async def _ask(self, user_id: str) -> str | None:
        try:
            locale = await self.lookup(user_id)
        finally:
            del self._asking[user_id]
        if locale is not None:
            self._known.pop(user_id, None)
            self._known[user_id] = (locale, self.clock())
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return locale


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
