"""The retry guard's keys and memory."""

from __future__ import annotations

from bot.slack_adapter.dedupe import SeenRequests, request_key


class Clock:
    """A hand-moved monotonic clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_key_is_the_trigger_id_or_the_click_time() -> None:
    assert request_key({"trigger_id": "t1", "actions": [{"action_ts": "1.2"}]}) == "trigger:t1"
    click = {"user": {"id": "U1"}, "actions": [{"action_ts": "1.2"}]}
    assert request_key(click) == "action:U1:1.2"
    assert request_key({"type": "event_callback"}) is None


def test_a_key_counts_once_within_the_window_and_is_forgotten_after() -> None:
    clock = Clock()
    seen = SeenRequests(window=60, max_keys=3, clock=clock)
    assert seen.first_time("a") and not seen.first_time("a")
    clock.now = 61
    assert seen.first_time("a")
    for key in "bcd":
        assert seen.first_time(key)
    assert seen.first_time("a")
