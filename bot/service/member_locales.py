"""Each member's locale, looked up once and remembered for a while (Slack's users.info).

A platform that names no locale with each request (Slack) asks for it per member; this keeps
the answers, shares a look-up among requests that arrive together, and bounds the look-ups in
flight.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

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
        known = self.known(user_id)
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
            if self.known(user_id) is None and user_id not in self._asking:
                await self.locale(user_id)

    def known(self, user_id: str) -> str | None:
        """The member's locale as remembered ("" if Slack names none); None if not known."""
        known = self._known.get(user_id)
        return known[0] if known is not None and self.clock() - known[1] < self.seconds else None

    def forget(self, _platform: str, _workspace: str, user_id: str) -> None:
        """Drop what is remembered of a forgotten member's locale."""
        self._known.pop(user_id, None)

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
