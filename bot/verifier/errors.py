"""The ways the checker signals trouble: unreadable input, and a checker that cannot grade now."""

from __future__ import annotations

BUSY = "The checker is busy; try again in a moment."
CRASHED = ("The checker stopped while reading that answer, so nothing was recorded; "
           "please send it again.")
UNAVAILABLE = ("The answer checker is not working right now, so nothing was recorded; "
               "please try again in a moment.")


class ReadError(ValueError):
    """Raised when a piece of text cannot be read as one answer; the message is user-facing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CheckerError(RuntimeError):
    """Raised when the checker itself cannot work, such as a worker that will not start."""

    reply = UNAVAILABLE
    """What to tell the member whose check it was: nothing about the answer was decided."""


class CheckerBusy(CheckerError):
    """The checker has too much work waiting to take (or finish) this check now."""

    reply = BUSY

    def __init__(self, why: str = "the checker's queue is full") -> None:
        super().__init__(why)


class CheckStopped(CheckerBusy):
    """A check that ran its turn while others waited, stopped so that they could run."""

    def __init__(self) -> None:
        super().__init__("the check was stopped so that waiting checks could run")


class CheckerCrashed(CheckerError):
    """A worker died on this check, and again on a fresh worker."""

    reply = CRASHED
