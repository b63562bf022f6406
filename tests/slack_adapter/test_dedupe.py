"""The delivery key: what makes a repeated Slack request recognisable in any process."""

from __future__ import annotations

from bot.engine import LessonEngine
from bot.slack_adapter.dedupe import delivery_key, first_delivery


def test_the_key_is_the_trigger_id_or_the_user_and_click_time() -> None:
    assert delivery_key({"trigger_id": "t1", "actions": [{"action_ts": "1.2"}]}) == "trigger:t1"
    click = {"user": {"id": "U1"}, "actions": [{"action_ts": "1.2"}]}
    assert delivery_key(click) == "action:U1:1.2"
    assert delivery_key({"type": "event_callback"}) is None


async def test_a_key_is_claimed_once_in_the_database(engine: LessonEngine) -> None:
    body = {"trigger_id": "t-claimed"}
    assert await first_delivery(engine, body)
    assert not await first_delivery(engine, body)
    assert await first_delivery(engine, {"trigger_id": "t-other"})
    assert await first_delivery(engine, {"type": "event_callback"})
