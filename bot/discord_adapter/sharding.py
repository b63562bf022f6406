"""Several processes on one bot: each connects with its own shard id (Discord sharding).

Discord sends each server's events to one shard (`(guild_id >> 22) % shard_count`), so a
server's clicks all reach the same process; every process shares one database.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings


class BadSharding(ValueError):
    """Shard settings that cannot work together."""


@dataclass(frozen=True)
class Shard:
    """This process's shard, or none (one process serves every server)."""

    shard_id: int | None = None
    shard_count: int | None = None

    @property
    def registers_commands(self) -> bool:
        """Only one process registers the slash commands: the unsharded one, or shard 0."""
        return not self.shard_id


def shard_of(settings: Settings) -> Shard:
    """The shard from DISCORD_SHARD_ID and DISCORD_SHARD_COUNT, when those settings exist."""
    shard_id, shard_count = settings.discord_shard_id, settings.discord_shard_count
    if shard_id is None and shard_count is None:
        return Shard()
    if shard_id is None or shard_count is None or not 0 <= int(shard_id) < int(shard_count):
        raise BadSharding(
            "DISCORD_SHARD_ID and DISCORD_SHARD_COUNT go together, "
            "with 0 <= DISCORD_SHARD_ID < DISCORD_SHARD_COUNT."
        )
    return Shard(int(shard_id), int(shard_count))
