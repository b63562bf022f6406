"""What every handler works with: the engine, host rights, and the ways to answer."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine import LessonBotError, LessonEngine, Member, Receipt
from bot.slack_adapter.acking import Ack, Show, ack_after, show_nothing, show_when_decided
from bot.slack_adapter.counter import LiveCounter
from bot.slack_adapter.dedupe import first_delivery
from bot.slack_adapter.hosts import HostDirectory
from bot.slack_adapter.inflight import InFlight
from bot.slack_adapter.messages import SlackMessages
from bot.slack_adapter.mrkdwn import to_mrkdwn
from bot.slack_adapter.payloads import Actor
from bot.slack_adapter.presenter import Presenter


@dataclass
class SlackContext:
    """The parts the listeners share; one per process."""

    engine: LessonEngine
    hosts: HostDirectory
    messages: SlackMessages
    presenter: Presenter
    counter: LiveCounter
    inflight: InFlight = field(default_factory=InFlight)

    async def settle(self, ack: Ack, decision: Awaitable[Show]) -> None:
        """Decide (store) and ack; show the outcome in the background, in flight until shown."""
        with self.inflight.acknowledging():
            decided = await ack_after(ack, decision)
        self.inflight.start(show_when_decided(decided))

    async def member(self, actor: Actor, needs_rights: bool = True) -> Member:
        """The engine's member for the actor, with host rights when the action needs them."""
        return await self.hosts.member(actor.user_id, actor.name, needs_rights)

    async def decide_once(
        self, body: dict[str, Any], actor: Actor, decide: Callable[[], Awaitable[Show]]
    ) -> Show:
        """Claim the delivery, then decide; a repeat shows nothing, a refusal is told privately."""
        try:
            if not await first_delivery(self.engine, body):
                return show_nothing
            return await decide()
        except LessonBotError as error:
            return functools.partial(self.refuse, actor, error)

    async def tell(self, actor: Actor, text: str) -> None:
        """A private message to the actor in their channel (via response_url if that fails)."""
        sent = await self.messages.ephemeral(actor.channel, actor.user_id, to_mrkdwn(text))
        if not sent and actor.response_url:
            await self.messages.respond(actor.response_url, to_mrkdwn(text))

    async def refuse(self, actor: Actor, error: LessonBotError) -> None:
        """Tell the actor, privately, why the engine said no."""
        await self.tell(actor, str(error))

    async def acknowledge(self, actor: Actor, receipt: Receipt) -> None:
        """Show a member their receipt and schedule the step's counter update."""
        self.counter.touch(actor.channel, receipt.run_id, receipt.step_id)
        await self.tell(actor, receipt.text)
