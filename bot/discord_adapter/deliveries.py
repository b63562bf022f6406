"""Handling each interaction once, however often the gateway delivers it.

Discord can deliver an INTERACTION_CREATE again (a gateway replay after a resume). The
interaction id names one member action, so it is the key. A repeat seen by this process
is dropped before anything is sent; the shared claim in the database (`first_delivery`)
catches a repeat that reaches another process or a process that forgot. Only the first
delivery can be answered anyway: Discord accepts one response per interaction.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from bot.discord_adapter.context import Interaction
from bot.discord_adapter.hosts import PLATFORM
from bot.engine import LessonEngine

log = logging.getLogger(__name__)

MAX_REMEMBERED = 50_000


class RecentIds:
    """The ids of the latest interactions this process received, oldest forgotten first."""

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._seen: OrderedDict[int, None] = OrderedDict()

    def first_time(self, interaction_id: int) -> bool:
        """Remember the id; False if it was already here."""
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = None
        if len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return True


class Deliveries:
    """Decides whether an interaction is a first delivery: here at once, then everywhere."""

    def __init__(self, engine: LessonEngine, recent: RecentIds | None = None) -> None:
        self.engine = engine
        self.recent = recent or RecentIds()

    def repeated_here(self, interaction: Interaction) -> bool:
        """Whether this process already received this interaction (no database needed)."""
        if self.recent.first_time(interaction.id):
            return False
        log.info("ignored a repeated delivery of interaction %s", interaction.id)
        return True

    async def claim(self, interaction: Interaction) -> bool:
        """Claim the interaction for this process; False if any process claimed it first."""
        first = await self.engine.first_delivery(PLATFORM, str(interaction.id))
        if not first:
            log.info("ignored a repeated delivery of interaction %s (claimed)", interaction.id)
        return first
