"""A Discord request, from the gateway to the member's private answer.

Who acted and where (`actor_of`), what the service decides (`Interactions`), and the answer
sent inside Discord's 3-second window (`PrivateReplies`): at once, or deferred first. A
member's own step of an assignment goes to their one private pass message (`passes.py`).

Discord can deliver an INTERACTION_CREATE again (a gateway replay after a resume). The
interaction id names one member action, so it is the delivery's key: a repeat seen by this
process is dropped before anything is sent, and the service's claim in the database catches
a repeat that reaches another process. Only the first delivery can be answered anyway:
Discord accepts one response per interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

import discord

from bot.discord_adapter.effects import DiscordEffects, PrivateMessage, Told
from bot.discord_adapter.forms import submitted_text
from bot.discord_adapter.passes import PassStep, PrivatePasses, from_private_message, retire
from bot.discord_adapter.render import Outgoing, private_text
from bot.engine import FORM_ACTIONS, Action, is_lesson_address, parse_address
from bot.i18n import N_, _, reading
from bot.model import LessonBotError, Place
from bot.service import Actor, CommandArgs, Delivery, LessonService, Outcome, fixed_rights
from bot.service.backpressure import PendingAcks
from bot.service.lesson_service import Deliveries

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

PLATFORM = "discord"
NO_SERVER = "dm"

Work = Callable[[], Awaitable[list[Told]]]
"""Decide and show; what to answer the member with (nothing: another process answered)."""
T = TypeVar("T")
Decide = Callable[[], Awaitable[Outcome]]

ACK_PATIENCE = 2.0
ACK_WINDOW = 3.0
BUSY = 10
FAILED = N_("Something went wrong on our side; please try again.")
DISCORD_FAILED = N_(
    "Done and saved, but Discord did not accept a lesson message (HTTP {status}). A host's "
    "`{command:repost}` posts the current step again, or its results once revealed; once "
    "the lesson has ended, `{command:results}` shows them."
)
FORBIDDEN = N_(
    "Done and saved, but Discord did not let the bot post here (HTTP 403). Give its role "
    "View Channel, Send Messages, Embed Links and Attach Files in this channel; then a host's "
    "`{command:repost}` posts the current step again, or its results once revealed "
    "(`{command:next}` posts missed results before moving on); once the lesson has ended, "
    "`{command:results}` shows them."
)
ALREADY_HANDLED = N_("That was already handled.")


def is_host(interaction: Interaction, host_role_id: int | None) -> bool:
    """Hosts have Manage Server (or Administrator) or the role whose id is `host_role_id`."""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    roles = getattr(interaction.user, "roles", [])
    return host_role_id is not None and any(role.id == host_role_id for role in roles)


def place_of(interaction: Interaction) -> Place:
    """The channel or thread an interaction came from; each holds its own run."""
    server = str(interaction.guild_id) if interaction.guild_id else NO_SERVER
    return Place(PLATFORM, server, str(interaction.channel_id))


def actor_of(interaction: Interaction, host_role_id: int | None) -> Actor:
    """The member who acted, where, with host rights decided from the interaction."""
    user = interaction.user
    rights = fixed_rights(is_host(interaction, host_role_id))
    return Actor(str(user.id), user.display_name, place_of(interaction), rights)


def lesson_custom_id(interaction: Interaction) -> str | None:
    """The custom_id of a lesson button or answer form the interaction carries; else None."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    return custom_id if is_lesson_address(custom_id) else None


def action_of(custom_id: str) -> Action | None:
    """What a lesson button does; None for a malformed one (the service refuses it)."""
    try:
        return parse_address(custom_id).action
    except LessonBotError:
        return None


class Interactions:
    """Hands lesson buttons, forms and commands to the service and answers each privately."""

    def __init__(
        self, service: LessonService, replies: PrivateReplies, host_role_id: int | None
    ) -> None:
        self.service = service
        self.replies = replies
        self.host_role_id = host_role_id
        self.effects = DiscordEffects(service.presenter)

    async def lesson_item(self, interaction: Interaction, custom_id: str) -> None:
        """A lesson button clicked or an answer form submitted, answered in their language."""
        actor = actor_of(interaction, self.host_role_id)
        with reading(str(interaction.locale)):
            if interaction.type is discord.InteractionType.component:
                if not await self.replies.retired_clicked(interaction):
                    await self.click(interaction, actor, custom_id)
            elif interaction.type is discord.InteractionType.modal_submit:
                text = submitted_text(interaction)
                delivery = self.delivery(interaction, slow=True)
                await self.answer(
                    interaction, partial(self.service.answer, actor, custom_id, text, delivery)
                )

    async def click(self, interaction: Interaction, actor: Actor, custom_id: str) -> None:
        """A lesson button: some open a form; the checker may be slow, so Check defers."""
        action = action_of(custom_id)
        if action in FORM_ACTIONS:
            await self.open_form(interaction, actor, custom_id)
            return
        delivery = self.delivery(interaction, slow=action is Action.CHECK)
        await self.answer(interaction, partial(self.service.click, actor, custom_id, delivery))

    async def open_form(self, interaction: Interaction, actor: Actor, custom_id: str) -> None:
        """Show the step's form if it still takes answers; otherwise say why not."""
        if self.service.deliveries.repeated_here(str(interaction.id)):
            return
        outcome = await self.service.click(actor, custom_id)
        await self.replies.send(interaction, await self.effects.told(interaction, outcome.effects))

    async def command(self, interaction: Interaction, verb: str, args: CommandArgs) -> None:
        """A slash command: the service's verb, answered privately in the member's language."""
        actor = actor_of(interaction, self.host_role_id)
        decide = partial(self.service.command, actor, verb, args, self.delivery(interaction))
        with reading(str(interaction.locale)):
            await self.answer(interaction, decide)

    @staticmethod
    def delivery(interaction: Interaction, slow: bool = False) -> Delivery:
        """The interaction as the service claims it; slow work (the checker) defers once held."""
        key = str(interaction.id)
        return Delivery(key, partial(defer_privately, interaction)) if slow else Delivery(key)

    async def answer(self, interaction: Interaction, decide: Decide) -> None:
        """Decide, show in the channel what changed, then answer the member privately."""

        async def told() -> list[Told]:
            outcome = await decide()
            return await self.effects.told(interaction, await outcome.shown())

        await self.replies.reply(interaction, told)


class PrivateReplies:
    """Answers directly when the bot is quiet; defers at once for slow work or a burst.

    A repeated delivery is not handled twice: the service claims it before deciding. A
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
        passes: PrivatePasses | None = None,
    ) -> None:
        self.deliveries = deliveries
        self.patience = patience
        self.busy = busy
        self.in_flight = 0
        self.acks = acks or PendingAcks()
        self.passes = passes or PrivatePasses()
        self._burst = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()

    async def reply(self, interaction: Interaction, work: Work) -> None:
        """Do the work (the service claims the delivery) and tell the member privately.

        A repeat seen here is dropped at once; one that reached another process first is
        dropped after the service's claim.
        """
        if self.deliveries.repeated_here(str(interaction.id)):
            return
        self._track(+1)
        try:
            await self._answer(interaction, work)
        finally:
            self._track(-1)

    async def retired_clicked(self, interaction: Interaction) -> bool:
        """Whether the click was on a pass message a newer one replaced: retired, not acted on."""
        if not self.passes.take_replaced(interaction.message):
            return False
        if not self.deliveries.repeated_here(str(interaction.id)):
            await retire(interaction.response.edit_message)
        return True

    async def _answer(self, interaction: Interaction, work: Work) -> None:
        deadline = asyncio.get_running_loop().time() + self.patience
        if self._burst.is_set():
            await self._acknowledge_first(interaction)
        told = await self._in_time(interaction, or_refusal(work()), deadline)
        if not told and interaction.response.is_done():  # a repeat acknowledged here
            told = [_(ALREADY_HANDLED)]
        await self.send(interaction, told)

    async def send(self, interaction: Interaction, told: list[Told]) -> None:
        """Answer the interaction: each private message in turn, the pass message moved on."""
        for answer in told:
            if isinstance(answer, PassStep):
                await self.passes.show(interaction, answer)
            else:
                await send_private(interaction, answer)

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


async def or_refusal(work: Awaitable[list[Told]]) -> list[Told]:
    """The work's answers; a refused request becomes its message, a failure a short apology."""
    try:
        return await work
    except LessonBotError as error:
        return [str(error)]
    except discord.HTTPException as error:
        log.warning("Discord refused a lesson message: %s %s", error.status, error.text)
        return [_(FORBIDDEN) if error.status == 403 else _(DISCORD_FAILED, status=error.status)]
    except Exception:
        log.exception("a lesson interaction failed")
        return [_(FAILED)]


async def defer_privately(interaction: Interaction, thinking: bool = True) -> None:
    """Acknowledge now; the reply follows, visible only to the member.

    With `thinking`, the member sees "thinking…" until then. Without it, a button click is
    acknowledged with nothing shown (the button stops spinning), which costs Discord and the
    bot less under a burst; other interactions still show "thinking…". A click or form from
    the member's pass message is acknowledged as an update of that message, which the reply
    then edits. If Discord refuses (the interaction expired), the work still runs: votes are
    upserts, so the member's click counts once even when they click again.
    """
    if interaction.response.is_done():
        return
    component = interaction.type is discord.InteractionType.component
    thinking = not from_private_message(interaction) and (thinking or not component)
    try:
        await interaction.response.defer(ephemeral=True, thinking=thinking)
    except discord.HTTPException as error:
        log.warning("could not acknowledge an interaction: %s", error.text or error.status)


async def send_private(interaction: Interaction, reply: PrivateMessage) -> None:
    """Send an ephemeral message, as the first response or as a follow-up."""
    message = reply if isinstance(reply, Outgoing) else private_text(reply)
    try:
        for part in (message, *message.then):
            kwargs = part.send_kwargs()
            if interaction.response.is_done():
                await interaction.followup.send(ephemeral=True, **kwargs)
            else:
                await interaction.response.send_message(ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        log.warning("could not reply to an interaction: %s", error.text or error.status)
