"""What members see of a lesson, on either platform: posts with their buttons, charts and
edits, and the private replies to what they sent."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from bot.engine import Action, Address, parse_address

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SHOWS_REPLY = "the reply itself"
SHOWS_THINKING = "thinking…"
SHOWS_NOTHING = "nothing, the reply follows"
"""What a member sees when their click is acknowledged (`Ack.shows`)."""


@dataclass(frozen=True)
class Button:
    """A button as a member sees it; its address is the engine's (`rl:<run>:<step>:...`)."""

    label: str
    address: str
    enabled: bool = True

    @property
    def target(self) -> Address:
        """The run, step, action and argument the button stands for."""
        return parse_address(self.address)


class Post(ABC):
    """A message the bot posted in the channel, read as it looks now (after any edits)."""

    @property
    @abstractmethod
    def text(self) -> str:
        """Every text of the message: titles, body, notes."""

    @property
    @abstractmethod
    def buttons(self) -> list[Button]:
        """The message's buttons, in order."""

    @property
    @abstractmethod
    def is_step(self) -> bool:
        """Whether the message shows a step of the lesson (not a reveal or the results)."""

    @property
    def step(self) -> str | None:
        """The id of the step the message shows, or None for other messages."""
        return self.buttons[0].target.step_id if self.is_step and self.buttons else None

    @property
    def run(self) -> int:
        """The run the message belongs to, read from its first button."""
        return self.buttons[0].target.run_id

    def button(self, label: str = "", action: str = "", arg: str = "") -> str:
        """The address of the first button whose label contains `label` and that matches."""
        for item in self.buttons:
            target = item.target
            if label in item.label and action in ("", target.action) and arg in ("", target.arg):
                return item.address
        raise AssertionError(f"no button {label or action} {arg} in {self.buttons}")

    def address(self, action: Action, arg: str = "") -> str:
        """An address for this message's run and step, whether or not it has such a button."""
        target = self.buttons[0].target
        return Address(target.run_id, target.step_id, action, arg).encode()

    def states(self) -> dict[str, bool]:
        """Each button's label and whether it can be clicked."""
        return {item.label: item.enabled for item in self.buttons}


@dataclass(frozen=True)
class Reply:
    """What one member was told privately."""

    text: str
    """As shown: Discord's content and embeds, Slack's blocks (or text without blocks)."""
    private: bool


@dataclass(frozen=True)
class Chart:
    """A chart shown with a post."""

    png: bytes
    words: str
    """What a reader gets besides the picture: its description, and on Slack its title."""


@dataclass(frozen=True)
class Ack:
    """How a click was acknowledged."""

    seconds: float | None
    """After how long; None if it never was."""
    shows: str
    """What the member saw then: one of the `SHOWS_` texts."""


@dataclass(frozen=True)
class Edit:
    """One edit of a post."""

    text: str
    keeps_buttons: bool
    """Whether it left the buttons as they were."""


def found_inert(seen: str, live: list[bool], typed: str) -> bool:
    """Whether `typed` is seen somewhere in `seen` with none of its characters live markup."""
    at = seen.find(typed)
    while at >= 0:
        if not any(live[at : at + len(typed)]):
            return True
        at = seen.find(typed, at + 1)
    return False
