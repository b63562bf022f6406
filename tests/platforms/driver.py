"""One way to drive a lesson on either platform, and to read what its members see.

A test written against `Platform` runs on Discord and on Slack alike. Each implementation
(`tests.platforms.on_discord`, `tests.platforms.on_slack`) drives the real discord.py client
or the real bolt app through its fake platform, as the platform's own tests do, and turns
what the fake recorded into the same few things (`tests.platforms.views`): posts in the
channel with their text, buttons, edits and chart, and the private replies a member got.

Texts are compared as the platform shows them: `Platform.bold` gives a phrase in the
platform's own bold markup (`**x**` on Discord, `*x*` on Slack).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from bot.engine import LessonCatalog, LessonEngine
from fakes.held_requests import Hold
from lessons.schema import PredictionStep
from tests.platforms.views import Ack, Chart, Edit, Post, Reply

T = TypeVar("T")

LESSON = LessonCatalog().get("rlvr")


def choice_labels(step_id: str) -> dict[str, str]:
    """A prediction step's choices: label by id."""
    step = LESSON.step_by_id(step_id)
    assert isinstance(step, PredictionStep)
    return {choice.id: choice.label for choice in step.choices}


@dataclass(frozen=True)
class Person:
    """Someone in the channel."""

    name: str
    """The name the platform gives the bot."""
    id: str
    """Their id on the platform, as the bot stores it."""


@dataclass(frozen=True)
class Sent:
    """Something a member sent (a click, a command, an answer), to read its reply by."""

    user: Person
    ref: object
    """The platform's own handle of the request."""


class ProcessHandle(Protocol):
    """A bot running in a process of its own."""

    async def wait(self) -> int:
        """Wait for the process to end; its exit status."""
        ...

    async def crash(self) -> None:
        """Kill the bot at once (SIGKILL), as a crash would."""
        ...

    async def terminate(self) -> int:
        """Stop the bot as a deploy would (SIGTERM); its exit status."""
        ...

    def log_text(self) -> str:
        """Everything the process logged so far."""
        ...


class Platform(ABC):
    """A lesson channel on one platform: a host, members, and the bot they talk to."""

    name: str
    host: Person
    ack_window: float
    """Seconds within which the platform wants every click acknowledged."""
    keeps_closed_buttons: bool
    """Whether a step moved past keeps its buttons (disabled, but More) or drops them all."""

    # -- people and markup -----------------------------------------------------------------

    @abstractmethod
    def member(self, name: str) -> Person:
        """A member without host rights."""

    @abstractmethod
    def set_locale(self, person: Person, locale: str) -> None:
        """The language `person`'s platform is set to from now on (`es-ES`), before they act."""

    @abstractmethod
    def bold(self, text: str) -> str:
        """`text` in the platform's bold markup, as the bot shows it."""

    @abstractmethod
    def literally(self, shown: str, typed: str) -> bool:
        """Whether text the bot sent as markup (`shown`) shows `typed` exactly as typed.

        Each character of `typed` must be seen as itself: none may start or end a format,
        a link, a mention, a channel or a time.
        """

    # -- the bot ---------------------------------------------------------------------------

    @abstractmethod
    def running(self, engine: LessonEngine) -> AbstractAsyncContextManager[None]:
        """The real bot in this process, on `engine`, while the block runs."""

    @abstractmethod
    def process(
        self, database_url: str, folder: Path, log_level: str = "INFO"
    ) -> AbstractAsyncContextManager[ProcessHandle]:
        """The bot in a process of its own on `database_url`, ready; killed after the block."""

    @abstractmethod
    async def settle(self) -> None:
        """Wait until the in-process bot finished what it does after acknowledging requests."""

    # -- acting ----------------------------------------------------------------------------

    @abstractmethod
    async def start(self) -> Post:
        """The host starts a run; the first step's post."""

    @abstractmethod
    async def next_step(self) -> Post:
        """The host's `/lesson next`; the post of the step it moved to."""

    @abstractmethod
    async def command(
        self, name: str, user: Person | None = None, options: dict[str, str] | None = None
    ) -> Sent:
        """`/lesson <name> [option:value…]` typed by `user` (the host by default)."""

    @abstractmethod
    async def forget_me(self, user: Person) -> Sent:
        """`forget-me` confirmed by `user`: everything stored about them here is deleted."""

    @abstractmethod
    async def click(self, user: Person, post: Post, address: str) -> Sent:
        """A click on the button `address` of `post`."""

    @abstractmethod
    async def send_form(self, user: Person, post: Post, address: str, text: str) -> Sent:
        """A member opens the form the button `address` of `post` opens, and submits `text`."""

    async def send_answer(self, user: Person, post: Post, text: str) -> Sent:
        """A member opens a free-answer step's form and submits `text`."""
        return await self.send_form(user, post, post.button(action="answer"), text)

    @abstractmethod
    async def burst(self, post: Post, clicks: Sequence[tuple[Person, str]]) -> list[Sent]:
        """Every (member, address) click on `post` at once, as fast as the platform takes them."""

    # -- reading ---------------------------------------------------------------------------

    @abstractmethod
    async def reply(self, sent: Sent, timeout: float = 10.0) -> Reply:
        """The private reply to what was sent, waiting for it."""

    @abstractmethod
    async def replies(self, sent: Sequence[Sent], timeout: float = 60.0) -> list[Reply]:
        """The private reply to each of many requests, waiting for all of them."""

    @abstractmethod
    def told(self, user: Person) -> list[Reply]:
        """Everything the member was told privately so far."""

    @abstractmethod
    def told_in_answer(self, sent: Sent) -> list[Reply]:
        """Every private message the member got so far in answer to what they sent."""

    @abstractmethod
    async def fire_timers(self) -> int:
        """One round of the in-process bot's timers (due steps, assignments, reminders)."""

    @abstractmethod
    def close_direct_messages(self, user: Person) -> None:
        """The member stops taking direct messages from the bot."""

    @abstractmethod
    def direct_texts(self, user: Person) -> list[str]:
        """The texts of the bot's direct messages to the member, oldest first."""

    @abstractmethod
    def hold_direct_message(self, user: Person, containing: str) -> Hold[Any]:
        """Leave the bot's next direct message to the member with `containing` unanswered.

        The platform neither answers nor delivers it (until the fake closes).
        """

    @abstractmethod
    def rate_limit_messages(self, times: int, retry_after: float) -> None:
        """Answer the bot's next `times` new messages (any channel) with 429 and Retry-After."""

    @abstractmethod
    def rate_limited(self) -> int:
        """How many of the bot's new messages the platform answered with 429."""

    @abstractmethod
    def direct_posts(self, user: Person) -> list[Post]:
        """The bot's messages in its direct messages with the member, as they are now."""

    @abstractmethod
    def own_posts(self, user: Person) -> list[Post]:
        """What the member was shown alone with buttons (their own steps), oldest first.

        A message edited in place (Discord's one private message) counts once per state.
        """

    @abstractmethod
    def ack(self, sent: Sent) -> Ack:
        """How a click was acknowledged (after its reply arrived)."""

    @abstractmethod
    def posts(self) -> list[Post]:
        """The bot's posts in the lesson's channel, oldest first."""

    @abstractmethod
    async def chart(self, post: Post) -> Chart:
        """The chart shown with a post, waiting for it."""

    @abstractmethod
    def edits(self, post: Post) -> list[Edit]:
        """Every edit made to a post, oldest first."""

    @abstractmethod
    def missing_edits(self) -> list[str]:
        """Each edit the bot sent for a message the channel it named does not hold."""

    @abstractmethod
    def thread_posts(self, post: Post) -> list[Post]:
        """The bot's posts in the thread under a post, oldest first."""

    @abstractmethod
    async def export_csv(self) -> str:
        """The host's `/lesson export` of the channel's run: the CSV file they were sent."""

    @abstractmethod
    def park_thread_post(self, number: int) -> Hold[Any]:
        """Leave the bot's `number`-th post in a thread (from 1) unanswered, as an outage would."""

    @abstractmethod
    async def wait(
        self, condition: Callable[[], T | None], timeout: float = 15.0, what: str = "a condition"
    ) -> T:
        """Wait until `condition()` is truthy, at each change the fake sees; its value."""

    # -- shortcuts built on the above ------------------------------------------------------

    async def press(self, user: Person, post: Post, address: str) -> Reply:
        """A click, and the private reply to it."""
        return await self.reply(await self.click(user, post, address))

    async def answer(self, user: Person, post: Post, text: str) -> Reply:
        """A typed answer, and the private reply to it."""
        return await self.reply(await self.send_answer(user, post, text))

    async def give_reason(self, user: Person, post: Post, text: str) -> Reply:
        """A member's reason for their answer, typed in the form its Add a reason button opens."""
        return await self.reply(await self.send_form(user, post, post.button(action="why"), text))

    async def ask(
        self, name: str, user: Person | None = None, options: dict[str, str] | None = None
    ) -> Reply:
        """A command, and the private reply to it."""
        return await self.reply(await self.command(name, user, options))

    async def reach(self, step: str) -> Post:
        """Start a run and move on until step `step` is shown; its post."""
        return await self.reach_from(await self.start(), step)

    async def reach_from(self, post: Post, step: str) -> Post:
        """Move on from the step shown by `post` until step `step` is shown."""
        while post.step != step:
            post = await self.next_step()
        return post

    async def own_step_after(self, user: Person, count: int) -> Post:
        """The first own step shown to `user` after they had been shown `count`."""
        return await self.wait(
            lambda: next((p for p in self.own_posts(user)[count:] if p.is_step), None),
            what=f"an own step of {user.name} after {count}",
        )

    async def step_after(self, count: int) -> Post:
        """The first step posted after the channel had `count` posts."""
        return await self.wait(
            lambda: next((p for p in self.posts()[count:] if p.is_step), None),
            what=f"a step posted after post {count}",
        )

    async def post_after(self, count: int, containing: str, timeout: float = 15.0) -> Post:
        """The first post after the channel had `count` posts whose text contains `containing`."""
        return await self.wait(
            lambda: next((p for p in self.posts()[count:] if containing in p.text), None),
            timeout,
            f"a post with {containing!r}",
        )
