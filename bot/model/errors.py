"""Typed errors the engine and storage raise; adapters turn each into a private reply."""

from __future__ import annotations

from bot.i18n import N_, _, ngettext


class LessonBotError(Exception):
    """A request the engine refused; `str(error)` is the message shown to the member."""


class NotHost(LessonBotError):
    """Only a host may do this."""

    def __init__(self, action: str = N_("do that")) -> None:
        super().__init__(_("Only a lesson host can {action}.", action=_(action)))


class NoActiveRun(LessonBotError):
    """There is no lesson running where the request came from."""

    def __init__(self) -> None:
        super().__init__(_("No lesson is running in this channel. A host can start one."))


class UnknownRun(LessonBotError):
    """A run id that does not exist where it was asked for."""

    def __init__(self, run_id: int) -> None:
        super().__init__(_("There is no run {run_id} in this workspace.", run_id=run_id))


class RunElsewhere(LessonBotError):
    """A run named from a channel other than the one it was held in."""

    def __init__(self, run_id: int, command: str = "export") -> None:
        super().__init__(
            _(
                "Run {run_id} was held in another channel; run the {command} there.",
                run_id=run_id,
                command=command,
            )
        )


class ChannelBusy(LessonBotError):
    """A channel can hold one active run at a time."""

    def __init__(self, run_id: int, assigned: bool = False) -> None:
        self.run_id = run_id
        self.assigned = assigned
        if assigned:
            text = _(
                "An assignment is already running in this channel (run {run_id}). "
                "Close it with `{command:close}` before starting another.",
                run_id=run_id,
            )
        else:
            text = _(
                "A live lesson is already running in this channel (run {run_id}). "
                "Stop it with `{command:stop}` before starting another.",
                run_id=run_id,
            )
        super().__init__(text)


class UnknownLesson(LessonBotError):
    """The lesson asked for does not exist."""

    def __init__(self, lesson_id: str, known: list[str]) -> None:
        available = ", ".join(known) or _("none")
        super().__init__(
            _(
                "There is no lesson called '{lesson_id}'. Available: {available}.",
                lesson_id=lesson_id,
                available=available,
            )
        )


class StepClosed(LessonBotError):
    """The step a button belongs to no longer takes answers."""

    def __init__(self, reason: str = "") -> None:
        super().__init__(_(reason or N_("This question is closed; answers are no longer taken.")))


class UnknownChoice(LessonBotError):
    """A choice, attempt or action id that the step does not have."""

    def __init__(self, choice_id: str) -> None:
        super().__init__(
            _("'{choice_id}' is not one of this question's options.", choice_id=choice_id)
        )


class WrongStep(LessonBotError):
    """The action does not fit the kind of step it was sent to."""

    def __init__(self, what: str) -> None:
        super().__init__(_("This step has no {what}.", what=_(what)))


class NotRevealedYet(LessonBotError):
    """A question's longer detail asked for before its reveal, where it could give answers away."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This question's longer explanation opens with its reveal; answer first, "
                "then read it under the results."
            )
        )


class BadAddress(LessonBotError):
    """A button id that could not be read."""

    def __init__(self) -> None:
        super().__init__(_("That button is not one this bot understands."))


class BadInput(LessonBotError):
    """Input that fails a simple check (too long, empty, out of range)."""


class TriesUsedUp(LessonBotError):
    """A member has used every try the free-answer step allows; nothing more is graded."""

    def __init__(self, max_tries: int) -> None:
        super().__init__(
            ngettext(
                "You have used your {count} tries at this problem, so this one was not graded. "
                "The answer comes at the reveal.",
                "You have used your {count} tries at this problem, so this one was not graded. "
                "The answer comes at the reveal.",
                max_tries,
            )
        )


class StoreUnavailable(LessonBotError):
    """The database could not be reached; nothing was recorded."""

    def __init__(self) -> None:
        super().__init__(_("Could not record that right now. Please try again in a moment."))


class CheckInFlight(LessonBotError):
    """The member already has an answer or a checker run being checked; nothing was recorded."""

    def __init__(self) -> None:
        super().__init__(_("Your previous answer is still being checked."))


class CheckerFailed(LessonBotError):
    """The answer checker could not grade this now (busy, crashed, unavailable); nothing stored."""

    def __init__(self, message: str, turned_away: bool = False) -> None:
        super().__init__(message)
        self.turned_away = turned_away
        """Whether the check ran its turn and was stopped so that others' checks could run."""


class ChecksPaused(LessonBotError):
    """A member whose checks were turned away again and again waits before the next one."""

    def __init__(self, seconds: int) -> None:
        super().__init__(
            _(
                "The checker had to stop your last few answers so that others' could be "
                "checked. Please take a moment to look over your working and send again in "
                "{seconds} s; nothing was recorded and no try was used.",
                seconds=seconds,
            )
        )


class StillPosting(LessonBotError):
    """The lesson is still posting an earlier step; nothing was moved."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The lesson is still posting the last step, so nothing was moved. "
                "Try again in a moment."
            )
        )


class NoOpenCheck(LessonBotError):
    """A recall check's button pressed by someone it is not open for."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This check is not open for you: it has closed, or it was sent to someone "
                "else. Nothing was recorded."
            )
        )
