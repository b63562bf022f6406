"""The ways the checker signals trouble: unreadable input, and a checker that cannot grade now."""

from __future__ import annotations

from bot.i18n import N_, _

BUSY = N_("The checker is busy; try again in a moment.")
CRASHED = N_("The checker stopped while reading that answer, so nothing was recorded; "
             "please send it again.")
SEVERAL = N_("That looks like more than one answer ({shown}); give just one.")
UNOPENED = N_("There's a '{bracket}' without a matching opening bracket.")
UNCLOSED = N_("A '{bracket}' is never closed; check your brackets.")
UNAVAILABLE = N_("The answer checker is not working right now, so nothing was recorded; "
                 "please try again in a moment.")


class ReadError(ValueError):
    """Raised when a piece of text cannot be read as one answer; the message is user-facing."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CheckerError(RuntimeError):
    """Raised when the checker itself cannot work, such as a worker that will not start."""

    said = UNAVAILABLE
    """What to tell the member whose check it was: nothing about the answer was decided."""

    @property
    def reply(self) -> str:
        """What to tell the member, in the current language."""
        return _(self.said)


class CheckerBusy(CheckerError):
    """The checker has too much work waiting to take (or finish) this check now."""

    said = BUSY

    def __init__(self, why: str = "the checker's queue is full") -> None:
        super().__init__(why)


class CheckStopped(CheckerBusy):
    """A check that ran its turn while others waited, stopped so that they could run."""

    def __init__(self) -> None:
        super().__init__("the check was stopped so that waiting checks could run")


class CheckerCrashed(CheckerError):
    """A worker died on this check, and again on a fresh worker."""

    said = CRASHED
