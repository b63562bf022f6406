"""The host verbs and member commands, one table for every platform.

`/lesson start`, `reveal`, `next`, `stop`, `results`, `repost`, `export`, `forget-me`,
`help` and the assigned mode's `assign`, `close`, `progress` and `continue` behave the same
on Discord, Slack and in the terminal: each checks rights in the engine, stores its change,
and returns an `Outcome` (what to tell, what to show).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from bot.engine import FORGET_CONFIRM, Closing, LessonEngine
from bot.i18n import N_, SOURCE_LANGUAGE, _, command, to_reader
from bot.model import Advance, BadInput, Discussion, Member, NoActiveRun, RunRecord
from bot.service.assignments import TEND_EVERY, Assignments, assign_usage, parse_recall
from bot.service.effects import FileReply, PrivateResults
from bot.service.languages import base_language
from bot.service.presenter import Presenter
from bot.service.recalls import progress_line, with_recall
from bot.service.surface import Actor, Outcome, confirmed, told

REVEALED = N_("Revealed. The results are posted in the channel.")
DISCUSSING = N_(
    "The channel is split, so the answer stays hidden: a second vote is open, with reasons "
    "in a thread. Reveal again for the results."
)
MOVED_ON = N_("Moved on.")
FINISHED = N_("That was the last step; results are posted.")
STOPPED = N_("Stopped the lesson. The results are posted in the channel.")
REPOSTED = N_("Posted the current step again (once a question is revealed: its results).")
CANNOT_POST = N_(
    "I could not post in this channel, so the lesson did not start. "
    "Invite me first (`/invite @Lesson Bot`), then run `{command:start}` again."
)
NO_RUN_HERE = N_("No lesson has run in this channel yet. Name the run to export by its number.")
START_USAGE = N_(
    "Usage: `{command:start} [lesson] [timer seconds] [recall:<when>] [language:<code>]`."
)
EXPORT_USAGE = N_("Usage: `{command:export} [run id]` (without an id: this channel's latest run).")
FORGET_USAGE = N_(
    "Usage: `{command:forget-me}` to see what is stored about you, then "
    "`{command:forget-me} {confirm}` to delete it."
)
_TIMER = re.compile(r"^(\d{1,5})s?$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}$")


@dataclass(frozen=True)
class CommandArgs:
    """What a command was given: start's lesson and timer, export's run, forget-me's confirm.

    `due` and `remind` are assign's times as typed (`3d`, `2026-12-10 17:00`).
    """

    lesson: str | None = None
    timer: int | None = None
    run: int | None = None
    confirm: bool = False
    due: str | None = None
    remind: str | None = None
    number: int | None = None
    """hide's reason number."""
    page: int | None = None
    """The page of reasons asked for (None: the newest; 0: a page that cannot be)."""
    recall: str | None = None
    """start's and assign's delayed recall as typed (`3d`, `2d,9d`, `off`)."""
    language: str | None = None
    """start's and assign's language for the run, as the host named it (`es`)."""
    place_language: str | None = None
    """The language the place usually speaks (a Discord server's preferred locale): the
    run's when the host names none and the lesson has it."""


@dataclass(frozen=True)
class Verb:
    """One command: its name, how it is typed, what it does, and whether hosts only."""

    name: str
    usage: str
    summary: str
    hosts_only: bool

    def described(self) -> str:
        """What the verb does, in the current language."""
        return _(self.summary, confirm=FORGET_CONFIRM)


VERBS = (
    Verb("start", "start [lesson] [timer] [recall:<when>] [language:<code>]", N_(
        "start a lesson here; a timer (seconds) moves each step on by itself; `recall:3d` "
        "(`2d,9d`, `off`): when members get recall checks"
    ), True),
    Verb("reveal", "reveal", N_("close the current question and post what the channel answered"),
         True),
    Verb("next", "next", N_("move on to the next step (revealing an open question first)"), True),
    Verb("stop", "stop", N_("end the lesson early and post the results"), True),
    Verb("results", "results", N_("see the results so far (only you see them)"), False),
    Verb("repost", "repost", N_("post the current step again (once revealed, its results)"),
         True),
    Verb("export", "export [run]", N_(
        "a run held in this channel: its answers as a CSV file, sent only to you (without a "
        "run id: the current or latest run here)"
    ), True),
    Verb("forget-me", f"forget-me [{FORGET_CONFIRM}]", N_(
        "see what is stored about you in this workspace; with `{confirm}`, delete it (revealed "
        "results keep their counts)"
    ), False),
    Verb("assign", "assign [lesson] due:<when> [remind:<when before due>] [recall:<when>] "
         "[language:<code>]", N_(
        "assign a lesson here: each member takes it privately by the due time (`3d`, `12h`, "
        "`2026-12-10 17:00` UTC); the results are posted when it closes"
    ), True),
    Verb("close", "close", N_("close the assignment here early and post its results"), True),
    Verb("progress", "progress", N_(
        "how many started and finished the assignment here, and where the others are (only "
        "you see it)"
    ), True),
    Verb("continue", "continue", N_("back to your own step of the assignment here"), False),
    Verb("reasons", "reasons [page]", N_(
        "members' reasons in the lesson here, numbered (only you see them)"
    ), True),
    Verb("hide", "hide <number>", N_(
        "hide a member's reason by its number from `reasons`: it is never shown again"
    ), True),
    Verb("help", "help", N_("this help"), False),
)

Run = Callable[["Actor", CommandArgs], Awaitable[Outcome]]
Steer = Callable[[RunRecord, Member], Awaitable[Outcome]]


class Verbs:
    """Runs each verb of the table through the engine and the presenter."""

    def __init__(
        self,
        engine: LessonEngine,
        presenter: Presenter,
        help_note: str = "",
        lesson_language: str = SOURCE_LANGUAGE,
        tend_every: timedelta = TEND_EVERY,
    ) -> None:
        """The verbs on `engine`, showing through `presenter`.

        `lesson_language`: a run's language where neither its host nor its place names one;
        `tend_every`: how often assignments are looked at (`Assignments.tend`).
        """
        self.engine = engine
        self.presenter = presenter
        self.help_note = help_note
        self.lesson_language = lesson_language
        self.assignments = Assignments(engine, presenter, tend_every)
        self.table: dict[str, Run] = {
            "start": self.start,
            "reveal": self.reveal,
            "next": self.next,
            "stop": self.stop,
            "results": self.results,
            "repost": self.repost,
            "export": self.export,
            "forget-me": self.forget_me,
            "help": self.help,
            "assign": self.assign,
            "close": self.close,
            "progress": self.progress,
            "continue": self.resume,
            "me": self.way_back,
            "reasons": self.reasons,
            "hide": self.hide,
        }

    async def run(self, actor: Actor, verb: str, args: CommandArgs) -> Outcome:
        """Run a verb by name; an unknown one shows the help."""
        return await self.table.get(verb, self.help)(actor, args)

    async def start(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Open a run here, then post its first step (stopping the run if it cannot be posted)."""
        host = await actor.member()
        plan = parse_recall(args.recall) if args.recall is not None else None
        language = self.run_language(args)
        card = await self.engine.start(actor.place, host, args.lesson, args.timer, plan, language)

        async def post_first_step() -> str | None:
            if await self.presenter.step(actor.channel, card) is not None:
                return None
            await self.engine.stop(card.run_id, host)
            with to_reader():
                return _(CANNOT_POST)

        done = started_text(card.run_id, card.total, args.timer)
        started = confirmed(done, post_first_step)
        return await self.presenter.in_turn(card.run_id, _ready(started))

    async def reveal(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Close the channel's open question, then post its results."""

        async def reveal(run: RunRecord, host: Member) -> Outcome:
            closing = await self.engine.reveal(run.id, host)
            channel = run.place.channel
            done = revealed_text(closing)
            return confirmed(done, lambda: self.presenter.reveal(channel, closing))

        return await self._steer(actor, reveal)

    async def next(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Move the channel's run on (revealing an open question first)."""

        async def advance(run: RunRecord, host: Member) -> Outcome:
            advance = await self.engine.advance(run.id, host)
            done = moved_text(advance)
            channel = run.place.channel
            return confirmed(done, lambda: self.presenter.advance(channel, advance))

        return await self._steer(actor, advance)

    async def reasons(self, actor: Actor, args: CommandArgs) -> Outcome:
        """For a host: members' reasons in this channel's lesson, numbered, privately."""
        host = await actor.member()
        return told(await self.engine.reasons_here(actor.place, host, args.page))

    async def hide(self, actor: Actor, args: CommandArgs) -> Outcome:
        """For a host: hide a reason of this channel's lesson by its number, and its post."""
        hidden = await self.engine.hide_here(actor.place, await actor.member(), args.number)
        redraw, channel = hidden.redraw, actor.channel
        if redraw is None:
            return told(hidden.text)
        return told(hidden.text, partial(self.presenter.redraw_reason, channel, redraw))

    async def stop(self, actor: Actor, args: CommandArgs) -> Outcome:
        """End the channel's run, close its step and post the results so far."""

        async def stop(run: RunRecord, host: Member) -> Outcome:
            closed, left = await self.engine.closed_card(run), await self.engine.passed_reveal(run)
            summary = await self.engine.stop(run.id, host)
            channel = run.place.channel
            with to_reader():
                done = _(STOPPED)
            return confirmed(done, lambda: self.presenter.stopped(channel, closed, summary, left))

        return await self._steer(actor, stop)

    async def results(self, actor: Actor, args: CommandArgs) -> Outcome:
        """The channel's results so far (revealed questions only), for whoever asked.

        With the delayed recall: each closed round's figures, or when the next comes.
        """
        summary = await self.engine.results_here(actor.place)
        standing = await self.engine.recall.standing(summary.run_id)
        return Outcome((PrivateResults(with_recall(summary, standing)),))

    async def repost(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Post the current step again, e.g. when the platform lost its message."""

        async def repost(run: RunRecord, host: Member) -> Outcome:
            shown = await self.engine.repost(actor.place, host)
            channel = run.place.channel
            with to_reader():
                done = _(REPOSTED)
            return confirmed(done, lambda: self.presenter.repost(channel, shown))

        return await self._steer(actor, repost)

    async def _steer(self, actor: Actor, steer: Steer) -> Outcome:
        """A host verb on the channel's run, decided and shown in the run's turn.

        The run is read again once the turn is taken, so the verb acts on what the channel
        shows by then. Someone without host rights is refused without waiting for the turn.
        """
        run, member = await self.engine.run_in(actor.place), await actor.member()
        if not member.is_host:
            return await steer(run, member)

        async def decide() -> Outcome:
            return await steer(await self.engine.run_in(actor.place), member)

        return await self.presenter.in_turn(run.id, decide)

    async def export(self, actor: Actor, args: CommandArgs) -> Outcome:
        """A run's answers as CSV: the named run, else this channel's current or latest one."""
        host = await actor.member()
        try:
            run_id, table = await self.engine.export_here(actor.place, host, args.run)
        except NoActiveRun:
            raise BadInput(_(NO_RUN_HERE)) from None
        text = _(
            "Run {run}: {rows} stored answers. Treat the file as personal data.",
            run=run_id, rows=csv_rows(table),
        )
        data = table.encode("utf-8")
        title = _("Answers of lesson run {run}", run=run_id)
        return Outcome((FileReply(text, f"run-{run_id}.csv", data, title),))

    async def forget_me(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Say what is stored about the member here; once confirmed, delete it."""
        member = await actor.member(needs_rights=False)
        if not args.confirm:
            return told(await self.engine.forget_preview(actor.place, member))
        return told(await self.engine.forget_member(actor.place, member))

    async def assign(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Assign a lesson here, due at a time: members take it privately."""
        return await self.assignments.assign(
            actor, args.lesson, args.due, args.remind, args.recall, self.run_language(args)
        )

    def run_language(self, args: CommandArgs) -> str:
        """The language of a run `start` or `assign` opens: the host's, checked, else the usual.

        The usual one is the place's, else `lesson_language`, where the lesson has it; else
        the lesson's own. Raise `BadInput` naming the languages there are for one it lacks.
        """
        if args.language is not None:
            return self.engine.run_language(args.lesson, args.language)
        offered = self.engine.run_languages(args.lesson)
        usual = [base_language(args.place_language), base_language(self.lesson_language)]
        return next((language for language in usual if language in offered), offered[0])

    async def close(self, actor: Actor, args: CommandArgs) -> Outcome:
        """Close the channel's assignment early and post its results."""
        return await self.assignments.close(actor)

    async def progress(self, actor: Actor, args: CommandArgs) -> Outcome:
        """For a host: an assignment's progress, and any run's recall checks, privately."""
        run, checks = await self.engine.recall.progress_here(actor.place, await actor.member())
        recall = progress_line(checks)
        if recall and not self.engine.modes.allows(run, "progress"):
            return told(_("**Run {run}**", run=run.id) + f"\n{recall}")
        progress = await self.assignments.progress(actor)
        return told(f"{progress}\n{recall}" if recall else progress)

    async def resume(self, actor: Actor, args: CommandArgs) -> Outcome:
        """A member's own step of the channel's assignment."""
        return await self.assignments.resume(actor)

    async def way_back(self, actor: Actor, args: CommandArgs) -> Outcome:
        """`me`: the member's own step while the assignment here is open, else the results."""
        if await self.assignments.open_here(actor.place):
            return await self.resume(actor, args)
        return await self.results(actor, args)

    async def help(self, actor: Actor, args: CommandArgs) -> Outcome:
        """What the command can do, and which lessons there are."""
        return told(help_text(self.engine.catalog.ids(), self.help_note))


def _ready(outcome: Outcome) -> Callable[[], Awaitable[Outcome]]:
    """A decision already made, to be shown in a run's turn."""

    async def decided() -> Outcome:
        return outcome

    return decided


def started_text(run_id: int, total: int, timer: int | None) -> str:
    """What a host is told on starting a run: its number and steps, and its pace if timed."""
    if timer:
        return _(
            "Started run {run} ({total} steps). Each step moves on after {timer} s.",
            run=run_id, total=total, timer=timer,
        )
    return _("Started run {run} ({total} steps).", run=run_id, total=total)


def csv_rows(text: str) -> int:
    """How many answer rows a CSV export holds (its header not counted)."""
    return max(0, len(list(csv.reader(io.StringIO(text)))) - 1)


def help_text(lesson_ids: list[str], note: str = "") -> str:
    """The command list, the platform's note on who hosts, and the lessons there are."""
    lines = [_("**`{command:}` runs an interactive lesson in this channel.**")]
    for verb in VERBS:
        hosts = _(" (hosts)") if verb.hosts_only else ""
        typed = command(verb.name) + verb.usage.removeprefix(verb.name)
        lines.append(f"• `{typed}`: {verb.described()}{hosts}")
    if note:
        lines.append(_(note))
    lines.append(_("Lessons: {lessons}", lessons=", ".join(lesson_ids) or _("none")))
    return "\n".join(lines)


def parse_command(text: str) -> tuple[str, CommandArgs]:
    """A typed command (`start rlvr 90s`, `export 12`): its verb and arguments."""
    words = text.split()
    if not words:
        return "help", CommandArgs()
    verb, rest = words[0].lower(), tuple(words[1:])
    if verb == "start":
        return verb, start_args(rest)
    if verb == "export":
        return verb, CommandArgs(run=export_run_id(rest))
    if verb == "forget-me":
        return verb, forget_args(rest)
    if verb == "assign":
        return verb, assign_args(rest)
    if verb == "hide":
        return verb, CommandArgs(number=reason_number(rest))
    if verb == "reasons":
        return verb, CommandArgs(page=page_number(rest))
    return verb, CommandArgs()


def reason_number(words: tuple[str, ...]) -> int | None:
    """`hide 12`: the reason's number; None for anything else (the verb then says its usage)."""
    return int(words[0]) if len(words) == 1 and words[0].isdigit() and len(words[0]) < 10 else None


def page_number(words: tuple[str, ...]) -> int | None:
    """`reasons 2`: the page asked for; None for none (the newest), 0 for anything else."""
    return (reason_number(words) or 0) if words else None


def assign_args(words: tuple[str, ...]) -> CommandArgs:
    """A lesson id, `due:<when>` and `remind:<when>`; a date's time may follow after a space."""
    lesson: str | None = None
    times: dict[str, str] = {}
    last: str | None = None
    for word in words:
        key, _colon, value = word.partition(":")
        key = key.lower()
        if key in ("due", "remind", "recall", "language") and value and key not in times:
            times[key], last = value, key
        elif last is not None and _CLOCK.match(word) and ":" not in times[last]:
            times[last] = f"{times[last]} {word}"
            last = None
        elif ":" not in word and lesson is None:
            lesson, last = word.lower(), None
        else:
            raise BadInput(assign_usage())
    return CommandArgs(
        lesson=lesson, due=times.get("due"), remind=times.get("remind"),
        recall=times.get("recall"), language=times.get("language"),
    )


def forget_args(words: tuple[str, ...]) -> CommandArgs:
    """`forget-me` alone previews; `forget-me confirm` deletes; anything else is refused."""
    if not words:
        return CommandArgs()
    if [word.lower() for word in words] == [FORGET_CONFIRM]:
        return CommandArgs(confirm=True)
    raise BadInput(_(FORGET_USAGE, confirm=FORGET_CONFIRM))


def start_args(words: tuple[str, ...]) -> CommandArgs:
    """A lesson id, a timer in seconds ("90" or "90s"), `recall:<when>` and `language:<code>`.

    In any order.
    """
    lesson: str | None = None
    timer: int | None = None
    recall: str | None = None
    language: str | None = None
    for word in words:
        match = _TIMER.match(word.lower())
        key, _colon, value = word.partition(":")
        if key.lower() == "recall" and value and recall is None:
            recall = value
        elif key.lower() == "language" and value and language is None:
            language = value
        elif match and timer is None:
            timer = int(match[1])
        elif not match and lesson is None:
            lesson = word.lower()
        else:
            raise BadInput(_(START_USAGE))
    return CommandArgs(lesson=lesson, timer=timer, recall=recall, language=language)


def export_run_id(words: tuple[str, ...]) -> int | None:
    """The run id named after `export`, or None for this channel's run."""
    if not words:
        return None
    if len(words) == 1 and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 18:
        return int(words[0])
    raise BadInput(_(EXPORT_USAGE))


def revealed_text(closing: Closing) -> str:
    """What a host is told on revealing, in their language: revealed, or held for a vote."""
    with to_reader():
        return _(DISCUSSING) if isinstance(closing, Discussion) else _(REVEALED)


def moved_text(advance: Advance) -> str:
    """What a host is told on moving on, in their language: moved, held for a vote, or done."""
    with to_reader():
        if advance.discussion is not None:
            return _(DISCUSSING)
        return _(MOVED_ON) if advance.card else _(FINISHED)
