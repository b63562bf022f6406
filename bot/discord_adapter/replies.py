"""Private (ephemeral) replies inside Discord's 3-second window: answer at once or defer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.arrivals import Arrivals
from bot.discord_adapter.context import Interaction
from bot.discord_adapter.deliveries import Deliveries
from bot.discord_adapter.responses import Reply, defer_privately, send_private
from bot.engine import LessonBotError
from bot.pending import PendingAcks

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[Reply]]
T = TypeVar("T")

ACK_PATIENCE = 2.0
ACK_WINDOW = 3.0
BUSY = 10
FAILED = "Something went wrong on our side; please try again."
DISCORD_FAILED = (
    "Done and saved, but Discord did not accept a lesson message (HTTP {status}). "
    "A host can post the current step again with `/lesson repost`."
)
FORBIDDEN = (
    "Done and saved, but Discord did not let the bot post here (HTTP 403). Give its role "
    "View Channel, Send Messages, Embed Links and Attach Files in this channel, then a host "
    "can post the current step with `/lesson repost`."
)
ALREADY_HANDLED = "That was already handled."


class PrivateReplies:
    """Answers directly when the bot is quiet; defers at once for slow work or a burst.

    Each interaction is claimed first, so a repeated delivery is not handled twice. A
    burst of clicks queues work behind the database, and deferring hundreds of
    interactions at the same late moment would itself be slow: during a burst every click
    is acknowledged at once (a button's acknowledgement shows nothing, which is the
    cheapest), and no click's work starts before every click received so far is
    acknowledged, so acknowledgements never wait for work.
    """

    def __init__(
        self,
        deliveries: Deliveries,
        patience: float = ACK_PATIENCE,
        busy: int = BUSY,
        arrivals: Arrivals | None = None,
    ) -> None:
        self.deliveries = deliveries
        self.patience = patience
        self.busy = busy
        self.in_flight = 0
        self.acks = PendingAcks(arrivals)
        self._burst = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()

    async def reply(self, interaction: Interaction, work: Work, slow: bool = False) -> None:
        """Claim the interaction, do the work and tell the member privately.

        A repeat seen here is dropped at once; one that reached another process first is
        dropped after its claim. `slow` work (the checker) defers first.
        """
        if self.deliveries.repeated_here(interaction):
            return
        self._track(+1)
        try:
            await self._answer(interaction, work, slow)
        finally:
            self._track(-1)

    async def _answer(self, interaction: Interaction, work: Work, slow: bool) -> None:
        deadline = asyncio.get_running_loop().time() + self.patience
        if self._burst.is_set():
            await self._acknowledge_first(interaction)
        claimed = await self._in_time(interaction, outcome(self._claim(interaction)), deadline)
        if claimed is not None:
            await self._refuse_repeat(interaction, claimed)
            return
        if slow:
            await defer_privately(interaction)
        await send_private(interaction, await self._in_time(interaction, outcome(work()), deadline))

    async def _acknowledge_first(self, interaction: Interaction) -> None:
        """Defer now, then wait until the burst's acknowledgements are done.

        That is: every click received so far is acknowledged and, if clicks are streaming
        in (`Arrivals`), the stream paused, so work does not slip in between two clicks of
        a burst. The wait ends after Discord's window at the latest: a late acknowledgement
        no longer counts, and the work must not wait for it.
        """
        with self.acks.acknowledging():
            await defer_privately(interaction, thinking=False)
        await self.acks.work_may_start(ACK_WINDOW)

    async def _claim(self, interaction: Interaction) -> Reply | None:
        """None for a first delivery; otherwise what to tell the member (if anything)."""
        return None if await self.deliveries.claim(interaction) else ALREADY_HANDLED

    async def _refuse_repeat(self, interaction: Interaction, reply: Reply) -> None:
        """Say why nothing was done, unless another process holds this interaction's answer."""
        if reply != ALREADY_HANDLED or interaction.response.is_done():
            await send_private(interaction, reply)

    async def _in_time(self, interaction: Interaction, work: Awaitable[T], deadline: float) -> T:
        """The work's result; the interaction is deferred if it is not ready by the deadline."""
        task = asyncio.ensure_future(work)
        if not interaction.response.is_done():
            remaining = deadline - asyncio.get_running_loop().time()
            await self._wait_briefly(task, remaining)
            if not task.done():
                await defer_privately(interaction)
        return await task

    async def _wait_briefly(self, task: asyncio.Future[Any], timeout: float) -> None:
        if timeout <= 0 or self._burst.is_set():
            return
        burst: asyncio.Future[Any] = asyncio.ensure_future(self._burst.wait())
        await asyncio.wait({task, burst}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        burst.cancel()

    async def settle(self, timeout: float) -> None:
        """Wait (at most `timeout` seconds) until every interaction in flight is answered."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    def _track(self, change: int) -> None:
        if change > 0:
            self.acks.arrived()
        self.in_flight += change
        if self.in_flight >= self.busy:
            self._burst.set()
        else:
            self._burst.clear()
        if self.in_flight:
            self._idle.clear()
        else:
            self._idle.set()


async def outcome(work: Awaitable[T]) -> T | str:
    """The work's result; a refused request becomes its message, a failure a short apology."""
    try:
        return await work
    except LessonBotError as error:
        return str(error)
    except discord.HTTPException as error:
        log.warning("Discord refused a lesson message: %s %s", error.status, error.text)
        return FORBIDDEN if error.status == 403 else DISCORD_FAILED.format(status=error.status)
    except Exception:
        log.exception("a lesson interaction failed")
        return FAILED
