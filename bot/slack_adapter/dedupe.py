"""Counting a request once when Slack delivers it again (X-Slack-Retry-Num), in any process.

Slack repeats a request it thinks went unanswered, with the same body, and behind a load
balancer the repeat may reach another process. Every slash command, button click and modal
submission carries a `trigger_id` that Slack issues once per user interaction, so that is the
key; a click without one is keyed by its user and `action_ts`. The key is claimed in the
database (`engine.first_delivery`), which every process shares: the first claim is handled,
any later one is acknowledged and dropped. A retry whose original never arrived is still
handled, because nobody claimed its key. Choices are idempotent in the database anyway; the
claim is what keeps checker runs and free-answer tries of a repeated request from doubling,
and keeps a late repeat of an old click from undoing a newer choice.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.engine import LessonEngine
from bot.slack_adapter.payloads import PLATFORM

log = logging.getLogger(__name__)


def delivery_key(body: dict[str, Any]) -> str | None:
    """What identifies one user interaction across deliveries, if anything does."""
    if body.get("trigger_id"):
        return f"trigger:{body['trigger_id']}"
    actions = body.get("actions") or []
    if actions and actions[0].get("action_ts"):
        user = (body.get("user") or {}).get("id", "")
        return f"action:{user}:{actions[0]['action_ts']}"
    return None


async def first_delivery(engine: LessonEngine, body: dict[str, Any]) -> bool:
    """Claim the request's key for every process; False if some process already had it."""
    key = delivery_key(body)
    if key is None or await engine.first_delivery(PLATFORM, key):
        return True
    log.info("ignored a repeated Slack request (%s)", key.split(":", 1)[0])
    return False
