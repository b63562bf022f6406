"""Reading `/lesson` arguments and the help text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine import BadInput

_TIMER = re.compile(r"^(\d{1,5})s?$")

HELP = """**`/lesson` runs an interactive lesson in this channel.**
• `/lesson start [lesson] [timer]`: start a lesson here (hosts). With a timer in seconds, \
each step is revealed and moved on by itself.
• `/lesson reveal`: show what the channel answered to the current question (hosts)
• `/lesson next`: move on to the next step (hosts)
• `/lesson stop`: end the lesson early and post the results (hosts)
• `/lesson results`: see the results so far (only you see them)
• `/lesson forget-me`: delete everything you answered in this workspace (revealed results \
keep their counts)
• `/lesson export [run]`: a run's answers as a CSV file, sent to you in a direct message \
(hosts; without a run id, this channel's latest run)
• `/lesson help`: this help
Hosts are workspace admins and owners, and anyone listed in SLACK_HOST_USERS. \
Invite the bot to the channel first (`/invite @Lesson Bot`).
Lessons: {lessons}"""


@dataclass(frozen=True)
class CommandText:
    """A `/lesson` command split into its verb and arguments."""

    verb: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class StartOptions:
    """What `/lesson start` asked for."""

    lesson_id: str | None = None
    timer_seconds: int | None = None


def split_command(text: str) -> CommandText:
    """The verb (help when empty) and the words after it."""
    words = text.split()
    if not words:
        return CommandText("help", ())
    return CommandText(words[0].lower(), tuple(words[1:]))


def start_options(args: tuple[str, ...]) -> StartOptions:
    """A lesson id and/or a timer in seconds ("90" or "90s"), in either order."""
    lesson_id: str | None = None
    timer: int | None = None
    for word in args:
        match = _TIMER.match(word.lower())
        if match and timer is None:
            timer = int(match[1])
        elif not match and lesson_id is None:
            lesson_id = word.lower()
        else:
            raise BadInput("Usage: `/lesson start [lesson] [timer seconds]`.")
    return StartOptions(lesson_id, timer)


def help_text(lesson_ids: list[str]) -> str:
    """The help shown for `/lesson help` and for unknown verbs."""
    return HELP.format(lessons=", ".join(lesson_ids) or "none")
