"""Fair use of the answer checker, per member, and its failures as refusals.

One check in flight per member, and a pause for a member whose checks keep being turned away.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bot.model.errors import CheckerFailed, CheckInFlight, ChecksPaused
from bot.model.records import Place
from bot.verifier.errors import CheckerError, CheckStopped

MemberKey = tuple[str, str, str]
TURNED_AWAY_LIMIT = 3
"""Checks of one member the checker may stop for others within `TURNED_AWAY_WINDOW`."""
TURNED_AWAY_WINDOW = 60.0
"""Seconds a turned-away check counts against its member."""


class CheckTurns:
    """Which members have a check in flight in this process, and whose checks keep giving way.

    A second check while one is in flight is refused. A member whose checks were stopped for
    others `TURNED_AWAY_LIMIT` times within `TURNED_AWAY_WINDOW` seconds waits until the
    oldest of them is that old: each costs a worker a whole turn while others wait.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._in_flight: set[MemberKey] = set()
        self._turned_away: dict[MemberKey, deque[float]] = {}
        self._clock = clock

    @contextmanager
    def turn(self, place: Place, user_id: str) -> Iterator[None]:
        """Hold the member's one turn for a check; raise `CheckInFlight` or `ChecksPaused`."""
        key = (place.platform, place.workspace, user_id)
        if key in self._in_flight:
            raise CheckInFlight()
        self._refuse_if_paused(key)
        self._in_flight.add(key)
        try:
            yield
        except CheckerFailed as failure:
            if failure.turned_away:
                self._turned_away.setdefault(key, deque()).append(self._clock())
            raise
        finally:
            self._in_flight.discard(key)

    def in_flight(self) -> int:
        """How many members have a check in flight now."""
        return len(self._in_flight)

    def paused(self) -> int:
        """How many members' turned-away checks are still counted (expired ones are dropped)."""
        now = self._clock()
        for key in list(self._turned_away):
            self._expire(key, now)
        return len(self._turned_away)

    def forget(self, platform: str, workspace: str, user_id: str) -> None:
        """Drop what this process holds about a member's checks."""
        self._turned_away.pop((platform, workspace, user_id), None)

    def _refuse_if_paused(self, key: MemberKey) -> None:
        now = self._clock()
        times = self._expire(key, now)
        if len(times) >= TURNED_AWAY_LIMIT:
            raise ChecksPaused(math.ceil(times[0] + TURNED_AWAY_WINDOW - now))

    def _expire(self, key: MemberKey, now: float) -> deque[float]:
        """The member's turned-away times still in the window; the member dropped if none."""
        times = self._turned_away.get(key, deque())
        while times and times[0] + TURNED_AWAY_WINDOW <= now:
            times.popleft()
        if not times:
            self._turned_away.pop(key, None)
        return times


@contextmanager
def checker_failures() -> Iterator[None]:
    """Turn the checker's own trouble into `CheckerFailed`, whose text the member sees."""
    try:
        yield
    except CheckerError as error:
        raise CheckerFailed(error.reply, isinstance(error, CheckStopped)) from error
