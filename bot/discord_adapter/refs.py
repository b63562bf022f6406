"""References to Discord messages, stored by the engine so any process can edit them."""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "discord"


@dataclass(frozen=True)
class MessageRef:
    """A message in a channel or thread."""

    channel_id: int
    message_id: int

    def encode(self) -> str:
        """The text saved with the engine, e.g. 'discord:123:456'."""
        return f"{PREFIX}:{self.channel_id}:{self.message_id}"

    @classmethod
    def decode(cls, text: str | None) -> MessageRef | None:
        """Read a saved reference back; None for anything that is not one of ours."""
        parts = (text or "").split(":")
        if len(parts) != 3 or parts[0] != PREFIX or not all(p.isdigit() for p in parts[1:]):
            return None
        return cls(int(parts[1]), int(parts[2]))
