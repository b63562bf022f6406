"""The delivery key a repeated Slack request is recognised by, claimed once in any process."""

from __future__ import annotations

from bot.engine import LessonEngine
from bot.service import LessonService, Presenter
from bot.slack_adapter.members import PLATFORM, delivery_key
from bot.slack_adapter.surface import SlackSurface, make_client


def test_the_key_is_the_trigger_id_or_the_user_and_click_time() -> None:
    assert delivery_key({"trigger_id": "t1", "actions": [{"action_ts": "1.2"}]}) == "trigger:t1"
    click = {"user": {"id": "U1"}, "actions": [{"action_ts": "1.2"}]}
    assert delivery_key(click) == "action:U1:1.2"
    assert delivery_key({"type": "event_callback"}) is None


async def test_a_key_is_claimed_once_in_the_database(engine: LessonEngine) -> None:
    surface = SlackSurface(make_client("xoxb-unused", "http://127.0.0.1:9/api/"))
    deliveries = LessonService(engine, Presenter(engine, surface)).deliveries
    claimed = delivery_key({"trigger_id": "t-claimed"})
    assert claimed is not None and await deliveries.claim(PLATFORM, claimed)
    assert not await deliveries.claim(PLATFORM, claimed)
    assert await deliveries.claim(PLATFORM, "trigger:t-other")
