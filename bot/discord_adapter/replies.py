"""Private (ephemeral) replies inside Discord's 3-second window: answer at once or defer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.discord_adapter.context import Interaction
from bot.discord_adapter.limits import MAX_CONTENT, clip
from bot.discord_adapter.outgoing import Outgoing
from bot.engine import LessonBotError

log = logging.getLogger(__name__)

Reply = str | Outgoing
ACK_PATIENCE = 2.0
BUSY = 10
FAILED = "Something went wrong on our side; please try again."


class PrivateReplies:
    """Answers directly when the bot is quiet; defers at once for slow work or a burst.

    A burst of clicks queues work behind the database, and deferring hundreds of
    interactions at the same late moment would itself be slow; acknowledging early
    keeps every click inside the window.
    """

    def __init__(self, patience: float = ACK_PATIENCE, busy: int = BUSY) -> None:
        self.patience = patience
        self.busy = busy
        self.in_flight = 0
        self._burst = asyncio.Event()

    async def reply(
        self, interaction: Interaction, work: Awaitable[Reply], slow: bool = False
    ) -> None:
        """Do the work and tell the member privately; `slow` work (the checker) defers first."""
        self._track(+1)
        try:
            if slow or self._burst.is_set():
                await defer_privately(interaction)
            task = asyncio.ensure_future(outcome(work))
            if not interaction.response.is_done():
                await self._wait_briefly(task)
            if not task.done():
                await defer_privately(interaction)
            await send_private(interaction, await task)
        finally:
            self._track(-1)

    async def _wait_briefly(self, task: asyncio.Future[Reply]) -> None:
        burst: asyncio.Future[Any] = asyncio.ensure_future(self._burst.wait())
        waiting: set[asyncio.Future[Any]] = {task, burst}
        await asyncio.wait(waiting, timeout=self.patience, return_when=asyncio.FIRST_COMPLETED)
        burst.cancel()

    def _track(self, change: int) -> None:
        self.in_flight += change
        if self.in_flight >= self.busy:
            self._burst.set()
        else:
            self._burst.clear()


async def defer_privately(interaction: Interaction) -> None:
    """Acknowledge now ("thinking…", visible only to the member); the reply follows.

    If Discord refuses (the interaction expired), the work still runs: votes are upserts,
    so the member's click counts once even when they click again.
    """
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as error:
        log.warning("could not acknowledge an interaction: %s", error.text or error.status)


async def outcome(work: Awaitable[Reply]) -> Reply:
    """The work's reply; a refused request becomes its message, a crash a short apology."""
    try:
        return await work
    except LessonBotError as error:
        return str(error)
    except Exception:
        log.exception("a lesson interaction failed")
        return FAILED


async def send_private(interaction: Interaction, reply: Reply) -> None:
    """Send an ephemeral message, as the first response or as a follow-up."""
    message = reply if isinstance(reply, Outgoing) else Outgoing(clip(reply, MAX_CONTENT))
    kwargs = message.send_kwargs()
    kwargs.pop("view", None)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        log.warning("could not reply to an interaction: %s", error.text or error.status)
