"""Who may steer a lesson: workspace admins and owners, plus SLACK_HOST_USERS."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.engine import Member

log = logging.getLogger(__name__)

HOST_FLAGS = ("is_admin", "is_owner", "is_primary_owner")
CACHE_SECONDS = 300.0


class HostDirectory:
    """Decides host rights with users.info, remembering each answer for a few minutes."""

    def __init__(
        self,
        client: AsyncWebClient,
        extra_hosts: set[str],
        cache_seconds: float = CACHE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.extra_hosts = frozenset(extra_hosts)
        self.cache_seconds = cache_seconds
        self.clock = clock
        self._known: dict[str, tuple[bool, float]] = {}

    async def member(self, user_id: str, name: str, needs_rights: bool = True) -> Member:
        """The engine's view of a Slack user; host rights are looked up only when they matter."""
        is_host = await self.is_host(user_id) if needs_rights else False
        return Member(user_id, name, is_host=is_host)

    async def is_host(self, user_id: str) -> bool:
        """Whether the user is a listed host, a workspace admin or an owner."""
        if user_id in self.extra_hosts:
            return True
        cached = self._known.get(user_id)
        if cached is not None and self.clock() - cached[1] < self.cache_seconds:
            return cached[0]
        is_host = await self._ask_slack(user_id)
        if is_host is None:
            return False
        self._known[user_id] = (is_host, self.clock())
        return is_host

    async def _ask_slack(self, user_id: str) -> bool | None:
        """The user's admin/owner flags, or None when Slack could not say (not cached)."""
        try:
            response = await self.client.users_info(user=user_id)
        except SlackApiError as error:
            log.warning("users.info failed for %s: %s", user_id, error.response.get("error"))
            return None
        user = response.get("user") or {}
        return any(bool(user.get(flag)) for flag in HOST_FLAGS)
