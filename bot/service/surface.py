"""What a platform and the shared service hand each other: who acted, what to show, what to say.

Each front end (Discord, Slack, the terminal) implements `Surface` for channel messages. What
goes back to the one member who acted (a private reply, a file, the answer form) travels in
the `Outcome` of their request, because only the platform's request object can answer it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Address, AssignmentCard, OwnStep
from bot.i18n import reader_locale
from bot.model import Form, Member, Place, ReasonCard, RevealCard, StepCard, SummaryCard

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


@dataclass(frozen=True)
class FileReply:
    """A private reply with a file attached (a run's answers as CSV)."""

    text: str
    filename: str
    data: bytes
    title: str = ""


@dataclass(frozen=True)
class FormToOpen:
    """Open a step's form (a free answer, a reason): its address, the step's card, the form."""

    address: Address
    card: StepCard
    form: Form


Reply = str | SummaryCard | FileReply
"""What one member is told privately: a text, the results so far, or a file."""

Show = Callable[[], Awaitable["Reply | None"]]
"""Channel updates that follow a request; may return a reply that replaces the planned one."""


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
    """What a request came to: a private reply, channel updates, maybe a form to open.

    `reply` must reach the member; `done` is a short confirmation for platforms where every
    request gets an answer anyway (a Discord interaction does; a Slack command need not).
    `repeated` marks a delivery some process already handled: nothing is shown or told.
    `reward` is what the checker gave, when the request was graded; `tries_left` how many
    more tries the member has at a free-answer problem. In an assigned lesson, `own` is the
    member's own step to show them privately (`reply` says it in text for platforms that show
    only text), and `so_far` the tally of the question they just answered; `answered` is then
    their step as it stands after that answer (its `text` what the answer came to), for a
    platform that redraws the private message the answer came from. `redraw` is what the
    clicked message itself becomes (a reason a host hid). `refused`: the request was refused,
    and `reply` says why.
    """

    reply: Reply | None = None
    done: str | None = None
    show: Show = nothing
    form: FormToOpen | None = None
    repeated: bool = False
    reward: int | None = None
    tries_left: int | None = None
    own: OwnStep | None = None
    so_far: RevealCard | None = None
    answered: OwnStep | None = None
    redraw: ReasonCard | StepCard | None = None
    refused: bool = False

    async def shown(self) -> Reply | None:
        """Run the channel updates; the reply that must reach the member afterwards."""
        replaced = await self.show()
        return replaced if replaced is not None else self.reply

    async def answer(self) -> Reply | None:
        """Run the channel updates; the reply, or else the confirmation, to give afterwards."""
        return await self.shown() or self.done
