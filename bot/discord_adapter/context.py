"""What every handler needs: the engine, the publisher, live counters and host rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.engine import LessonEngine

Interaction = discord.Interaction[discord.Client]

if TYPE_CHECKING:
    from bot.discord_adapter.counter import LiveCounters
    from bot.discord_adapter.deliveries import Deliveries
    from bot.discord_adapter.publisher import Publisher
    from bot.discord_adapter.replies import PrivateReplies


@dataclass
class AdapterContext:
    """The adapter's running parts, reachable from any interaction through its client."""

    engine: LessonEngine
    publisher: Publisher
    counters: LiveCounters
    host_role: str
    replies: PrivateReplies

    @property
    def deliveries(self) -> Deliveries:
        """Which interactions were already received (each is handled once)."""
        return self.replies.deliveries

