"""Message references: what the engine stores for each posted step, read back."""

from __future__ import annotations

from bot.discord_adapter.surface import MessageRef


def test_message_refs_round_trip_and_reject_others() -> None:
    ref = MessageRef(123, 456)
    assert ref.encode() == "discord:123:456"
    assert MessageRef.decode(ref.encode()) == ref
    assert MessageRef.decode("slack:C1:1.2") is None
    assert MessageRef.decode(None) is None
    assert MessageRef.decode("discord:1:x") is None
