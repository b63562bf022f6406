"""Requests a fake platform parks without answering, as if the platform had not replied yet.

A test holds the request it wants to interrupt (the results post, say), waits until it
arrives, then kills the bot process while the request is still open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

C = TypeVar("C")


@dataclass
class Hold(Generic[C]):
    """The first request matching `matches` is parked: kept, signalled, answered only on release."""

    matches: Callable[[C], bool]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    call: C | None = None

    def takes(self, call: C) -> bool:
        """Whether this hold parks `call`: the first matching request, until released."""
        if self.call is not None or self.released.is_set() or not self.matches(call):
            return False
        self.call = call
        self.arrived.set()
        return True

    async def wait_arrived(self, timeout: float = 15.0) -> C:
        """The parked request, once it has arrived; fail the test after `timeout` seconds."""
        try:
            await asyncio.wait_for(self.arrived.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"no held request arrived within {timeout} s") from None
        assert self.call is not None
        return self.call


class Holds(Generic[C]):
    """The holds of one fake server."""

    def __init__(self) -> None:
        self._holds: list[Hold[C]] = []

    def add(self, matches: Callable[[C], bool]) -> Hold[C]:
        """Park the next request matching `matches`."""
        hold = Hold(matches)
        self._holds.append(hold)
        return hold

    async def parked(self, call: C) -> bool:
        """If a hold takes `call`, wait until it is released and say so; else False at once."""
        hold = next((h for h in self._holds if h.takes(call)), None)
        if hold is None:
            return False
        await hold.released.wait()
        return True

    def release_all(self) -> None:
        """Let every parked request go (the fake is closing)."""
        for hold in self._holds:
            hold.released.set()
