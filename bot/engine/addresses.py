"""Button addresses: `rl:<run>:<step>:<action>[:<arg>]`, so any process can handle any click."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.model.errors import BadAddress
from bot.model.records import Place

PREFIX = "rl"
MAX_LENGTH = 100
_SLUG = r"[a-z0-9][a-z0-9-]{0,23}"
ADDRESS_PATTERN = (
    rf"{PREFIX}:(?P<run>[1-9][0-9]{{0,11}}):(?P<step>{_SLUG}):(?P<action>[a-z]{{1,8}})"
    rf"(?::(?P<arg>{_SLUG}))?"
)
"""The shape of every address, as a regular expression (for platforms' id templates)."""
_PATTERN = re.compile(ADDRESS_PATTERN)


class Action(StrEnum):
    """What a button does."""

    CHOOSE = "choose"
    UP = "up"
    DOWN = "down"
    CHECK = "check"
    ANSWER = "answer"
    REVEAL = "reveal"
    NEXT = "next"
    MORE = "more"
    START = "start"
    ONWARD = "onward"
    AGAIN = "again"
    WHY = "why"
    HIDE = "hide"
    RECALL = "recall"
    NOMORE = "nomore"


ACTIONS_WITH_ARG = {
    Action.CHOOSE, Action.UP, Action.DOWN, Action.CHECK, Action.AGAIN, Action.HIDE, Action.RECALL
}
HOST_ACTIONS = {Action.REVEAL, Action.NEXT, Action.HIDE}
"""Actions that need the member's host rights looked up (the engine refuses anyone else)."""
FORM_ACTIONS = frozenset({Action.ANSWER, Action.WHY})
"""Actions whose button opens a one-field form (an answer, a reason) instead of answering."""
IN_THREADS = frozenset({Action.HIDE})
"""Actions on posts in a thread under the run's message: taken from any of its workspace's
channels, since a platform's thread may be a channel of its own (Discord's is)."""
RECALL_ACTIONS = frozenset({Action.RECALL, Action.NOMORE})
"""Actions on a member's delayed recall check, sent privately: clicked outside any channel."""


@dataclass(frozen=True)
class Address:
    """The run, step, action and argument a button stands for."""

    run_id: int
    step_id: str
    action: Action
    arg: str = ""

    def encode(self) -> str:
        """The custom_id / action_id string for this address."""
        parts = [PREFIX, str(self.run_id), self.step_id, self.action.value]
        if self.arg:
            parts.append(self.arg)
        return ":".join(parts)


def same_workspace(one: Place, other: Place) -> bool:
    """Whether two channels are in the same workspace (server) of the same platform."""
    return (one.platform, one.workspace) == (other.platform, other.workspace)


def is_lesson_address(text: str) -> bool:
    """Whether a custom_id belongs to this bot at all."""
    return text.startswith(PREFIX + ":")


def parse_address(text: str) -> Address:
    """Read an address back; raise `BadAddress` for anything malformed or forged."""
    match = _PATTERN.fullmatch(text) if len(text) <= MAX_LENGTH else None
    if match is None or match["action"] not in Action._value2member_map_:
        raise BadAddress()
    action = Action(match["action"])
    arg = match["arg"] or ""
    if (action in ACTIONS_WITH_ARG) != bool(arg):
        raise BadAddress()
    return Address(int(match["run"]), match["step"], action, arg)
