"""Private (ephemeral) replies inside Discord's 3-second window: answer at once or defer.

Discord can deliver an INTERACTION_CREATE again (a gateway replay after a resume). The
interaction id names one member action, so it is the delivery's key: a repeat seen by this
process is dropped before anything is sent, and the shared claim in the database catches a
repeat that reaches another process. Only the first delivery can be answered anyway:
Discord accepts one response per interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord_adapter.members import PLATFORM, Interaction
from bot.discord_adapter.render import MAX_CONTENT, Outgoing, clip
from bot.model import LessonBotError
from bot.service.backpressure import PendingAcks
from bot.service.lesson_service import Deliveries

log = logging.getLogger(__name__)

PrivateMessage = str | Outgoing
"""What the member is told: a text, or a message with embeds or files."""
Work = Callable[[], Awaitable[PrivateMessage]]
T = TypeVar("T")

ACK_PATIENCE = 2.0
ACK_WINDOW = 3.0
BUSY = 10
FAILED = "Something went wrong on our side; please try again."
DISCORD_FAILED = (
    "Done and saved, but Discord did not accept a lesson message (HTTP {status}). A host's "
    "`/lesson repost` posts the current step again, or its results once revealed; once "
    "the lesson has ended, `/lesson results` shows them."
)
FORBIDDEN = (
    "Done and saved, but Discord did not let the bot post here (HTTP 403). Give its role "
    "View Channel, Send Messages, Embed Links and Attach Files in this channel; then a host's "
    "`/lesson repost` posts the current step again, or its results once revealed (`/lesson "
    "next` posts missed results before moving on); once the lesson has ended, `/lesson results` "
    "shows them."
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
        acks: PendingAcks | None = None,
    ) -> None:
        self.deliveries = deliveries
        self.patience = patience
        self.busy = busy
        self.in_flight = 0
        self.acks = acks or PendingAcks()
        self._burst = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()

    async def reply(self, interaction: Interaction, work: Work, slow: bool = False) -> None:
        """Claim the interaction, do the work and tell the member privately.

        A repeat seen here is dropped at once; one that reached another process first is
        dropped after its claim. `slow` work (the checker) defers first.
        """
        if self.deliveries.repeated_here(str(interaction.id)):
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
        claimed = await self._in_time(interaction, or_refusal(self._claim(interaction)), deadline)
        if claimed is not None:
            await self._refuse_repeat(interaction, claimed)
            return
        if slow:
            await defer_privately(interaction)
        reply = await self._in_time(interaction, or_refusal(work()), deadline)
        await send_private(interaction, reply)

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

    async def _claim(self, interaction: Interaction) -> PrivateMessage | None:
        """None for a first delivery; otherwise what to tell the member (if anything)."""
        first = await self.deliveries.claim(PLATFORM, str(interaction.id))
        return None if first else ALREADY_HANDLED

    async def _refuse_repeat(self, interaction: Interaction, reply: PrivateMessage) -> None:
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
        if self.acks.enabled and self.in_flight >= self.busy:
            self._burst.set()
        else:
            self._burst.clear()
        if self.in_flight:
            self._idle.clear()
        else:
            self._idle.set()


async def or_refusal(work: Awaitable[T]) -> T | str:
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


async def defer_privately(interaction: Interaction, thinking: bool = True) -> None:
    """Acknowledge now; the reply follows, visible only to the member.

    With `thinking`, the member sees "thinking…" until then. Without it, a button click is
    acknowledged with nothing shown (the button stops spinning), which costs Discord and the
    bot less under a burst; other interactions still show "thinking…". If Discord refuses
    (the interaction expired), the work still runs: votes are upserts, so the member's click
    counts once even when they click again.
    """
    if interaction.response.is_done():
        return
    thinking = thinking or interaction.type is not discord.InteractionType.component
    try:
        await interaction.response.defer(ephemeral=True, thinking=thinking)
    except discord.HTTPException as error:
        log.warning("could not acknowledge an interaction: %s", error.text or error.status)


async def send_private(interaction: Interaction, reply: PrivateMessage) -> None:
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
