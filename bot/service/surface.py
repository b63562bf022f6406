"""What a platform and the shared service hand each other: who acted, what to show, what to say.

Each front end (Discord, Slack, the terminal) implements `Surface` for channel messages. What
goes back to the one member who acted (a private reply, a file, the answer form) travels as
the effects of their request's `Outcome`, because only the platform's request can answer it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.engine import AssignmentCard
from bot.i18n import reader_locale
from bot.model import Member, Place, ReasonCard, RevealCard, StepCard, SummaryCard
from bot.service.effects import Confirmation, Effect, PrivateText

Card = StepCard | RevealCard | SummaryCard | AssignmentCard | ReasonCard
Redrawn = StepCard | RevealCard | AssignmentCard | ReasonCard
"""A posted card drawn again: a step's counter or closing, a reveal, an assignment's counts,
a reason a host hid."""

Rights = Callable[[], Awaitable[bool]]


async def no_rights() -> bool:
    """The rights of someone who is not a host."""
    return False


def fixed_rights(is_host: bool) -> Rights:
    """Host rights already known from the platform event."""

    async def rights() -> bool:
        return is_host

    return rights


@dataclass(frozen=True)
class Actor:
    """Who acted, and where; host rights are looked up only when an action needs them."""

    user_id: str
    name: str
    place: Place
    rights: Rights = no_rights

    @property
    def channel(self) -> str:
        """The channel or thread to show updates in."""
        return self.place.channel

    async def member(self, needs_rights: bool = True) -> Member:
        """The engine's view of the actor, with the locale their request came with (`reading`)."""
        is_host = await self.rights() if needs_rights else False
        return Member(self.user_id, self.name, is_host, reader_locale())



@dataclass(frozen=True)
class DrawnChart:
    """A card's chart drawn as PNG, with the title a platform shows beside the file.

    `description` says in words what the chart shows, for a screen reader: Discord's
    attachment description and Slack's alt text (it fits both platforms' limits).
    """

    png: bytes
    title: str
    description: str


class PlatformUnavailable(Exception):
    """The platform did not answer a post (an outage, a timeout): posting again later may work.

    A platform that answers with a refusal (no access to the channel) is not unavailable:
    its `post` returns None or raises its own error, and the host is told why.
    """


class Surface(Protocol):
    """Channel messages on one platform; `shows_charts` is False where no picture can be shown.

    `shows_own_steps` is True where a member's own step of an assignment can be shown to them
    privately with its buttons, so assigned lessons can be taken there. `back_verb` names the
    command every member can type in a channel to get back to their own step.
    """

    shows_charts: bool
    shows_own_steps: bool
    back_verb: str

    async def post(self, channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        """Post a card (with its chart); the message's reference, or None if it was refused.

        Raises `PlatformUnavailable` when the platform did not answer.
        """
        ...

    async def post_in_thread(
        self, channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        """Post a card in the thread under the posted message `under`, started on first use.

        `title` names the thread where the platform shows one. The post's reference, or None
        if the platform refused (the bot may not start a thread there). Raises
        `PlatformUnavailable` when the platform did not answer.
        """
        ...

    async def edit(self, channel: str, ref: str, card: Redrawn) -> bool:
        """Redraw a posted step, reveal, assignment card or reason (hidden) in a thread.

        A step's counter or closing, a reveal's Next disabled, an assignment's counts.

        Whether it worked.
        """
        ...

    async def message_member(
        self, place: Place, user_id: str, text: str, card: StepCard | None = None
    ) -> bool:
        """Message one member privately (a direct message); False if the platform refuses.

        With `card`, the message is the card with its buttons (`text` its notification).

        Raises `PlatformUnavailable` when the platform did not answer.
        """
        ...

    async def find(self, channel: str, card: StepCard | RevealCard) -> str | None:
        """A recent message of the bot's in the channel that shows this card, if one can be seen.

        A post whose answer was lost (the process stopped while sending it) may have arrived;
        finding it spares the channel a second copy. None where the channel cannot be read.
        """
        ...


Show = Callable[[], Awaitable[str | None]]
"""Channel updates that follow a request; may return what the member is told instead."""


async def nothing() -> None:
    """No further step: a request that changes nothing in the channel, a claim needing no ack."""


@dataclass(frozen=True)
class Delivery:
    """One delivery of a request: the key any process claims it by, then the platform's part.

    `claimed` runs once this process holds the delivery, before the engine decides: Discord
    acknowledges slow work there, so a repeat another process holds is never acknowledged.
    """

    key: str
    claimed: Callable[[], Awaitable[None]] = nothing


@dataclass(frozen=True)
class Outcome:
    """What a request came to: the effects shown to the member who acted, and channel updates.

    The channel updates (`show`) run first, after the platform's acknowledgement; if they
    could not all be made, the member is told so instead of the planned effects.
    """

    effects: tuple[Effect, ...] = ()
    show: Show = nothing

    async def shown(self) -> tuple[Effect, ...]:
        """Run the channel updates; the effects to show the member afterwards."""
        instead = await self.show()
        return self.effects if instead is None else (PrivateText(instead),)


def told(text: str, show: Show = nothing) -> Outcome:
    """An outcome that tells the member `text` privately, after the channel updates."""
    return Outcome((PrivateText(text),), show)


def confirmed(text: str, show: Show = nothing) -> Outcome:
    """An outcome the channel shows; the member gets a short confirmation where one is due."""
    return Outcome((Confirmation(text),), show)
