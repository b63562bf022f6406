"""Counting a request once when Slack delivers it again (X-Slack-Retry-Num).

Every slash command, button click and modal submission carries a `trigger_id` that Slack
issues once per user interaction, and a retry repeats the same body. So the key is the
trigger_id (or the action_ts of a click without one): the first delivery is handled, any
later one with the same key is acknowledged and dropped. A retry whose original never
arrived is still handled. Keys are kept in this process for the retry window; choices
are idempotent in the database anyway (one vote per member, step and kind), and this
guard is what keeps checker runs and free-answer tries of a retried request from doubling.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse

log = logging.getLogger(__name__)

RETRY_WINDOW_SECONDS = 15 * 60.0
MAX_KEYS = 100_000


def request_key(body: dict[str, Any]) -> str | None:
    """What identifies one user interaction across deliveries, if anything does."""
    if body.get("trigger_id"):
        return f"trigger:{body['trigger_id']}"
    actions = body.get("actions") or []
    if actions and actions[0].get("action_ts"):
        user = (body.get("user") or {}).get("id", "")
        return f"action:{user}:{actions[0]['action_ts']}"
    return None


class SeenRequests:
    """Keys seen recently, oldest forgotten first."""

    def __init__(
        self,
        window: float = RETRY_WINDOW_SECONDS,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.window = window
        self.max_keys = max_keys
        self.clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()

    def first_time(self, key: str) -> bool:
        """Record the key; True unless it was already seen within the window."""
        now = self.clock()
        self._forget_old(now)
        if key in self._seen:
            return False
        self._seen[key] = now
        return True

    def _forget_old(self, now: float) -> None:
        while self._seen and (
            len(self._seen) >= self.max_keys or now - next(iter(self._seen.values())) > self.window
        ):
            self._seen.popitem(last=False)


class RetryDedupe(AsyncMiddleware):
    """Global middleware (after signature checks): acks a repeated delivery and stops it."""

    def __init__(self, seen: SeenRequests | None = None) -> None:
        self.seen = seen or SeenRequests()

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse | None:
        """Pass a first delivery on; answer 200 to a repeat without handling it again."""
        key = request_key(req.body)
        if key is None or self.seen.first_time(key):
            return await next()
        retry = req.headers.get("x-slack-retry-num", ["0"])[0]
        log.info("ignored a repeated Slack request (retry %s)", retry)
        return BoltResponse(status=200, body="")
