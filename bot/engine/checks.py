"""Fair use of the answer checker: one check in flight per member, failures as refusals."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.model.errors import CheckerFailed, CheckInFlight
from bot.model.records import Place
from bot.verifier.errors import CheckerError

MemberKey = tuple[str, str, str]


class CheckTurns:
    """Which members have a check in flight in this process; a second one is refused."""

    def __init__(self) -> None:
        self._in_flight: set[MemberKey] = set()

    @contextmanager
    def turn(self, place: Place, user_id: str) -> Iterator[None]:
        """Hold the member's one turn for a check; raise `CheckInFlight` if it is taken."""
        key = (place.platform, place.workspace, user_id)
        if key in self._in_flight:
            raise CheckInFlight()
        self._in_flight.add(key)
        try:
            yield
        finally:
            self._in_flight.discard(key)

    def in_flight(self) -> int:
        """How many members have a check in flight now."""
        return len(self._in_flight)


@contextmanager
def checker_failures() -> Iterator[None]:
    """Turn the checker's own trouble into `CheckerFailed`, whose text the member sees."""
    try:
        yield
    except CheckerError as error:
        raise CheckerFailed(error.reply) from error
