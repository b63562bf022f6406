"""Host rights a platform looks up per member: remembered briefly, and a failed look-up answered.

A platform that must ask its API whether someone is a host (Slack: is the user an admin or
owner of this workspace?) asks only when an action needs it, and remembers the answer for
`HOST_RIGHTS_SECONDS`, so a demoted admin loses host rights within that time. When the
platform cannot say (a network error, an API error), the member is told so privately, and
nothing is remembered.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterable

from bot.i18n import _
from bot.model import LessonBotError, Place
from bot.service.surface import Actor

HOST_RIGHTS_SECONDS = 30.0
"""How long a looked-up answer stands: well inside the minute a demotion may take to count."""
MAX_REMEMBERED = 10_000

Lookup = Callable[[str, str], Awaitable[bool | None]]
"""Whether a user is a host in a workspace; None when the platform could not say."""


class RightsUnknown(LessonBotError):
    """The platform could not say whether the member is a host; nothing was done."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Could not check your host rights just now, so nothing was done. "
                "Please try again in a moment."
            )
        )


class HostRights:
    """Listed hosts, else the platform's answer for this user in this workspace, kept briefly."""

    def __init__(
        self,
        lookup: Lookup,
        listed: Iterable[str] = (),
        seconds: float = HOST_RIGHTS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lookup = lookup
        self.listed = frozenset(listed)
        self.seconds = seconds
        self.clock = clock
        self._known: dict[tuple[str, str], tuple[bool, float]] = {}

    def actor(self, user_id: str, name: str, place: Place) -> Actor:
        """The service's actor; host rights are looked up only if an action needs them."""
        rights = functools.partial(self.is_host, user_id, place.workspace)
        return Actor(user_id, name, place, rights)

    async def is_host(self, user_id: str, workspace: str) -> bool:
        """Whether the user hosts in `workspace`; `RightsUnknown` if the platform cannot say."""
        if user_id in self.listed:
            return True
        key = (user_id, workspace)
        known = self._known.get(key)
        if known is not None and self.clock() - known[1] < self.seconds:
            return known[0]
        is_host = await self.lookup(user_id, workspace)
        if is_host is None:
            raise RightsUnknown()
        self._remember(key, is_host)
        return is_host

    def forget(self, _platform: str, workspace: str, user_id: str) -> None:
        """Drop what is remembered of a member's host rights in a workspace."""
        self._known.pop((user_id, workspace), None)

    def remembered(self) -> int:
        """How many members' host rights are remembered now."""
        return len(self._known)

    def _remember(self, key: tuple[str, str], is_host: bool) -> None:
        now = self.clock()
        if len(self._known) >= MAX_REMEMBERED:
            self._known = {k: v for k, v in self._known.items() if now - v[1] < self.seconds}
        self._known[key] = (is_host, now)
