"""Assigned lessons in the service: assigning, each member's private pass, closing once.

`/lesson assign` opens an assigned run and posts its card in the channel; Start on the card
and each member's own Next come back as an `Outcome` showing the member's step to them alone
(`OwnStepShown`); a member who answered a question gets its tally so far.
The card's counts ("12 started · 7 finished") are redrawn through the presenter's throttled
counters. The run closes once, at its due time (`close_due`, from the timer loop) or by
`/lesson close`; the process that closed it posts the results and shows the card closed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.engine import NOT_POSTED, AssignmentCard, LessonEngine, OwnStep, bar_lines, plan_line
from bot.i18n import N_, _, command, speaking, to_reader
from bot.model import (
    BadInput,
    MemberPass,
    NoActiveRun,
    Place,
    RevealCard,
    RunRecord,
    SummaryCard,
)
from bot.service.effects import OwnStepShown
from bot.service.languages import member_language
from bot.service.posting import each_in_turn, holder_gone
from bot.service.presenter import Presenter
from bot.service.surface import Actor, Outcome, PlatformUnavailable, confirmed, told

log = logging.getLogger(__name__)

CARD_STEP = "assignment"
"""The step id the assignment card's message is remembered under."""
RESULTS_STEP = "assignment-results"
"""The step id a closed assignment's results message is remembered under."""
THREAD_STEP = "assignment-thread"
"""Saved once each question's results are in the thread under the results message, or
cannot be (the channel refused the results or the thread); each one's message is saved as
that question's results (`remember_reveal`)."""
THREAD_REFUSED = (
    "assignment %s: the platform refused a thread under its results, so its questions' "
    "results are not posted there; `/lesson results` shows them"
)
MAX_AHEAD = timedelta(days=90)
TEND_EVERY = timedelta(seconds=5)
"""How often the timer loop looks for assignments to close, posts to mend and reminders
(and recall checks to plan), unless DUE_CHECK_INTERVAL says otherwise."""
CLOSE_PATIENCE = 2.0
"""Seconds closing a due assignment waits for its run's turn; else the next round closes it."""
WHEN = N_(
    "a duration such as `90m`, `2h`, `3d`, `1w` or `1d12h`, or a UTC date such as "
    "`2026-12-10` or `2026-12-10 17:00`"
)
ASSIGN_USAGE = N_(
    "Usage: `{command:assign} [lesson] due:<when> [remind:<when before due>] [recall:<when>] "
    "[language:<code>]`, where <when> is {when}."
)
CLOSED_NOW = N_("Closed the assignment. The results are posted in the channel.")
ALREADY_CLOSED = N_("The assignment was already closed; its results are in the channel.")
CANNOT_POST = N_(
    "I could not post in this channel, so the lesson was not assigned. "
    "Invite me first (`/invite @Lesson Bot`), then run `{command:assign}` again."
)

_DURATION = re.compile(r"^(?:(\d{1,3})w)?(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[ t](\d{1,2}:\d{2}))?$")
RECALL_USAGE = N_("`recall:3d` (a time after the lesson), `recall:2d,9d` (spaced), or `recall:off`")
MAX_RECALL_DELAY = timedelta(days=90)
NOT_ON_THIS_PLATFORM = N_(
    "Assigned lessons cannot be taken here: this front end cannot show members their own "
    "steps privately. Run the lesson live with `{command:start}`."
)


def assign_usage() -> str:
    """How `/lesson assign` is typed, and what its times may be, in the current language."""
    return _(ASSIGN_USAGE, when=_(WHEN))


def utc_text(moment: datetime) -> str:
    """A time as hosts read it, e.g. '2026-12-10 17:00 UTC'."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def parse_duration(text: str) -> timedelta | None:
    """`90m`, `2h`, `3d`, `1w`, `1d12h`: the span; None if the text is not a duration."""
    match = _DURATION.match(text)
    if match is None or not any(match.groups()):
        return None
    weeks, days, hours, minutes = (int(part or 0) for part in match.groups())
    return timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)


def parse_date(text: str) -> datetime | None:
    """`2026-12-10`, `2026-12-10 17:00` or `2026-12-10T17:00` in UTC; None if not a date."""
    match = _DATE.match(text)
    if match is None:
        return None
    day, time = match[1], match[2] or "00:00"
    try:
        return datetime.strptime(f"{day} {time}", "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise BadInput(
            _("`{text}` is not a date and time that exists.", text=text) + " " + assign_usage()
        ) from None


def parse_when(text: str, now: datetime) -> datetime:
    """When an assignment is due: a duration from now or a UTC date, within 90 days."""
    word = text.strip().lower()
    span = parse_duration(word)
    due = now + span if span is not None else parse_date(word)
    if due is None:
        raise BadInput(_("`{text}` is not a time.", text=text) + " " + assign_usage())
    if due <= now:
        raise BadInput(
            _("The due time ({due}) has passed; give a time in the future.", due=utc_text(due))
        )
    if due - now > MAX_AHEAD:
        latest = utc_text(now + MAX_AHEAD)
        raise BadInput(_(
            "The due time must be within {days} days (by {latest}).",
            days=MAX_AHEAD.days, latest=latest,
        ))
    return due


def parse_remind(text: str, due: datetime, now: datetime) -> datetime:
    """When to remind: a duration before the due time, or a UTC date, after now."""
    word = text.strip().lower()
    span = parse_duration(word)
    remind = due - span if span is not None else parse_date(word)
    if remind is None:
        raise BadInput(_("`{text}` is not a time.", text=text) + " " + assign_usage())
    if not now < remind < due:
        raise BadInput(_(
            "The reminder ({remind}) must come after now and before the due time ({due}).",
            remind=utc_text(remind), due=utc_text(due),
        ))
    return remind


def parse_recall(text: str) -> tuple[int, ...]:
    """`3d`, `2d,9d` or `off`: the delays after the lesson, in seconds, in order."""
    word = text.strip().lower()
    if word in ("off", "none", "no"):
        return ()
    spans = [parse_duration(part.strip()) for part in word.split(",")]
    if not word or None in spans or len(spans) > 3:
        raise BadInput(
            _("`{text}` is not a recall plan. Use {usage}.", text=text, usage=_(RECALL_USAGE))
        )
    delays = [int(span.total_seconds()) for span in spans if span is not None]
    latest = MAX_RECALL_DELAY.total_seconds()
    if delays != sorted(set(delays)) or delays[0] < 3600 or delays[-1] > latest:
        raise BadInput(_(
            "Recall times must rise, each at least an hour after the lesson and within "
            "{days} days: {usage}.",
            days=MAX_RECALL_DELAY.days, usage=_(RECALL_USAGE),
        ))
    return tuple(delays)


def own_text(own: OwnStep) -> str:
    """A member's own step as text: where they are, and the tally so far once answered."""
    if own.card is None:
        return own.text
    card = own.card
    lines = [f"**{card.number}/{card.total} · {card.title}**", card.body]
    if own.so_far is not None:
        lines.append(so_far_text(own.so_far))
    return "\n\n".join(line for line in lines if line)


def card_title(card: AssignmentCard) -> str:
    """The heading of an assignment card."""
    return _("Assignment: {title}", title=card.title)


def card_lines(card: AssignmentCard, due_text: Callable[[datetime], str] = utc_text) -> list[str]:
    """What an assignment card says under its heading, its due time drawn by `due_text`."""
    how = (
        _("Closed. The results are posted in the channel.")
        if card.closed
        else _(
            "Press Start to take it privately, at your own pace. "
            "The results are posted here when it closes."
        )
    )
    recall = "" if card.closed else plan_line(card.recall_plan)
    return [
        _(
            "{steps} steps, about {minutes} minutes. Due {due}.",
            steps=card.steps, minutes=card.minutes, due=due_text(card.due_at),
        ),
        how,
        *([recall] if recall else []),
        card.counter_text,
    ]


def on_platform(runs: list[RunRecord], platform: str | None) -> list[RunRecord]:
    """The runs of one platform; all of them if `platform` is None."""
    return [run for run in runs if platform is None or run.place.platform == platform]


def reminder_text(
    run: RunRecord, title: str, step: int, steps: int, back_verb: str = "continue"
) -> str:
    """The private reminder to a member who started an assignment and has not finished it."""
    if run.due_at is None:
        return _(
            "Reminder: **{title}**, assigned in <#{channel}>, is due soon. "
            "You are at step {step} of {steps}. To carry on, press Start on its card there "
            "or type `{command}` in that channel.",
            title=title, channel=run.place.channel, step=step, steps=steps,
            command=command(back_verb),
        )
    return _(
        "Reminder: **{title}**, assigned in <#{channel}>, is due {due}. "
        "You are at step {step} of {steps}. To carry on, press Start on its card there "
        "or type `{command}` in that channel.",
        title=title, channel=run.place.channel, due=utc_text(run.due_at), step=step,
        steps=steps, command=command(back_verb),
    )


def thread_title(lesson_title: str) -> str:
    """The name of the thread under an assignment's results."""
    return _("Each question of {title}", title=lesson_title)


def so_far_text(so_far: RevealCard) -> str:
    """A question's tally among those who answered so far, as text, with its notes."""
    return "\n".join([f"**{so_far.title}**", *bar_lines(so_far.bars), *so_far.notes])


class Assignments:
    """The assigned mode's verbs, clicks and closing, through the engine and the presenter."""

    def __init__(
        self, engine: LessonEngine, presenter: Presenter, tend_every: timedelta = TEND_EVERY
    ) -> None:
        self.engine = engine
        self.presenter = presenter
        self.tend_every = tend_every
        self._tended: dict[str | None, datetime] = {}
        """When each platform's assignments were last tended."""

    async def assign(self, actor: Actor, lesson: str | None, due: str | None,
                     remind: str | None, recall: str | None = None,
                     language: str | None = None) -> Outcome:
        """Open an assigned run here, then post its card (closing it if it cannot be posted).

        `language`: the run's (None: the lesson's own).
        """
        if not self.presenter.surface.shows_own_steps:
            raise BadInput(_(NOT_ON_THIS_PLATFORM))
        if due is None:
            raise BadInput(assign_usage())
        now = self.engine.clock()
        due_at = parse_when(due, now)
        remind_at = parse_remind(remind, due_at, now) if remind is not None else None
        plan = parse_recall(recall) if recall is not None else None
        host = await actor.member()
        card = await self.engine.assigned.assign(
            actor.place, host, lesson, due_at, remind_at, plan, language
        )

        async def post_card() -> str | None:
            if await self.engine.step_message(card.run_id, CARD_STEP) is not None:
                return None  # a timer round (`post_missing`) took the run's turn first
            if await self.post_card(await self.engine.open_run(card.run_id)) is not None:
                return None
            await self.engine.assigned.close(card.run_id, host)
            with to_reader():
                return _(CANNOT_POST)

        done = _(
            "Assigned run {run} ({steps} steps), due {due}. "
            "Members press Start on its card to take it privately.",
            run=card.run_id, steps=card.steps, due=utc_text(due_at),
        )
        decided = confirmed(done, post_card)

        async def ready() -> Outcome:
            return decided

        return await self.presenter.in_turn(card.run_id, ready)

    async def close(self, actor: Actor) -> Outcome:
        """A host closes the channel's assignment early: its results are posted once."""
        host = await actor.member()
        run = self.engine.modes.require(await self.engine.run_in(actor.place), "close")

        async def decide() -> Outcome:
            summary = await self.engine.assigned.close(run.id, host)
            with to_reader():
                text = _(ALREADY_CLOSED if summary is None else CLOSED_NOW)
            if summary is None:
                return told(text)

            async def show() -> None:
                await self.closed(run, summary)

            return confirmed(text, show)

        return await self.presenter.in_turn(run.id, decide)

    async def tend(self, platform: str | None = None) -> int:
        """At most once per `tend_every`: close what is due, post what is missing, remind.

        An assignment's times are coarse, so the timer loop's tick (a second) need not query
        for them each time; how many of them acted.
        """
        now = self.engine.clock()
        last = self._tended.get(platform)
        if last is not None and now - last < self.tend_every:
            return 0
        self._tended[platform] = now
        closed = await self.close_due(platform)
        return closed + await self.post_missing(platform) + await self.remind_due(platform)

    async def close_due(self, platform: str | None = None) -> int:
        """Close every assignment (of one platform, if given) whose due time passed."""
        due = on_platform(await self.engine.assigned.due(), platform)
        return await each_in_turn(
            due, self._close_due, "could not close assignment %s at its due time"
        )

    async def remind_due(self, platform: str | None = None) -> int:
        """Send the reminders owed by assignments whose reminder time came; how many went."""
        due = on_platform(await self.engine.assigned.assignments_to_remind(), platform)
        return await each_in_turn(due, self._remind, "could not remind the members of run %s")

    async def _remind(self, run: RunRecord) -> int:
        """Remind each member the run still owes a reminder, claiming each first; how many got it.

        A member's reminder is claimed (one conditional UPDATE) before it is sent and marked
        sent after, so two processes never both send it. A process killed at each moment:
        - before the claim: nothing changed; the next round, in any process, sends it.
        - after the claim, before the request leaves: the claim lapses (`REMINDER_LEASE`; at
          once for a process on the same machine, which sees its holder no longer runs) and
          the next round sends it: once.
        - with the request in flight: if the platform did not take it, as above, once. If it
          did, or once it answered and before the mark is written, the member gets it again
          when the claim is taken over: the one window, a request and an UPDATE long, where
          a reminder can come twice rather than never.
        - after the mark: it is never sent again.
        A send the platform does not answer (`PlatformUnavailable`) gives its claim back for
        the next round (twice, too, if the platform did deliver it and only its answer was
        lost); a refusal marks the member unreachable. The run's reminder is done once no
        member is owed one, and only then is the run no longer due for reminding.
        """
        assigned = self.engine.assigned
        owed = await assigned.owed_reminders(run.id)
        holder = self.presenter.turns.holder
        gone = [other for other in await assigned.reminder_holders(run.id) if holder_gone(other)]
        reached = 0
        for held in owed:
            if await assigned.claim_reminder(run.id, held.user_id, holder, gone):
                reached += await self._send_reminder(run, held, holder)
        await assigned.finish_reminder(run.id)
        return reached

    async def _send_reminder(self, run: RunRecord, held: MemberPass, holder: str) -> int:
        """Send one claimed reminder: marked sent (1), the member unreachable, or given back."""
        assigned, surface = self.engine.assigned, self.presenter.surface
        with speaking(member_language(held.locale, run)) as language:
            lesson = self.engine.lesson_of(run, language)
            at, steps = held.step_index + 1, len(lesson.steps)
            text = reminder_text(run, lesson.title, at, steps, surface.back_verb)
        try:
            sent = await surface.message_member(run.place, held.user_id, text)
        except PlatformUnavailable:  # no answer: not their doing, so tried again next round
            log.warning("a reminder of assignment %s got no answer", run.id)
            await assigned.unclaim_reminder(run.id, held.user_id, holder)
            return 0
        if not sent:
            await assigned.unreachable(run.id, held.user_id)
            return 0
        await assigned.reminded(run.id, held.user_id)
        return 1

    async def _close_due(self, run: RunRecord) -> int:
        async with self.presenter.turns.holding(run.id, patience=CLOSE_PATIENCE):
            summary = await self.engine.assigned.close(run.id)
            if summary is None:  # another process closed it first
                return 0
            try:
                await self.closed(run, summary)
            except PlatformUnavailable:
                log.warning("assignment %s closed; its results could not be posted", run.id)
            return 1

    async def closed(self, run: RunRecord, summary: SummaryCard) -> None:
        """Show a closed assignment: its card closed, its results, each question's in a thread.

        The card's Start is disabled. Every message is saved, so a process finds what was
        never posted.
        """
        await self.redraw_card(run.id)
        ref = await self.presenter.post(run.place.channel, summary)
        await self.engine.remember_message(run.id, RESULTS_STEP, ref or NOT_POSTED)
        await self.post_thread(run, summary)

    async def post_thread(self, run: RunRecord, summary: SummaryCard) -> None:
        """Post, once, each question's results missing from the thread under the results.

        Where the results or the thread were refused, nothing more is posted (the channel
        gets no flood of replies instead); `/lesson results` still shows every question.
        """
        under = await self.engine.step_message(run.id, RESULTS_STEP) or NOT_POSTED
        if under != NOT_POSTED and not await self._post_reveals(run, under, summary.reveals):
            under = NOT_POSTED
        await self.engine.remember_message(run.id, THREAD_STEP, under)

    async def _post_reveals(
        self, run: RunRecord, under: str, reveals: tuple[RevealCard, ...]
    ) -> bool:
        """Post the reveals not yet in the thread, in order; False if the thread was refused."""
        title = thread_title(self.engine.lesson_of(run).title)
        for reveal in reveals:
            if await self.engine.reveal_message(run.id, reveal.step_id) is not None:
                continue  # posted before an outage or a crash stopped the thread
            ref = await self.presenter.post_in_thread(run.place.channel, under, title, reveal)
            await self.engine.remember_reveal(run.id, reveal.step_id, ref)
            if ref is None:
                log.warning(THREAD_REFUSED, run.id)
                return False
        return True

    async def post_missing(self, platform: str | None = None) -> int:
        """Post the cards of open assignments, and the results of closed ones, never posted.

        Results cut short (their thread unfinished) are finished.
        """
        assigned = self.engine.assigned
        cards = on_platform(await assigned.open_without(CARD_STEP), platform)
        results = on_platform(await assigned.closed_without(THREAD_STEP), platform)
        failed = "could not post the missing message of assignment %s"
        return await each_in_turn(cards, self._post_card, failed) + await each_in_turn(
            results, self._post_results, failed
        )

    async def _post_card(self, run: RunRecord) -> int:
        return await self._post_once(run, CARD_STEP, lambda: self.post_card(run))

    async def _post_results(self, run: RunRecord) -> int:
        async def post() -> None:
            summary = await self.engine.results(run.id)
            if await self.engine.step_message(run.id, RESULTS_STEP) is None:
                await self.closed(run, summary)
            else:
                await self.post_thread(run, summary)

        return await self._post_once(run, THREAD_STEP, post)

    async def _post_once(
        self, run: RunRecord, key: str, post: Callable[[], Awaitable[object]]
    ) -> int:
        """In the run's turn, post what is saved under `key` unless some process did."""
        async with self.presenter.turns.holding(run.id, patience=CLOSE_PATIENCE):
            if await self.engine.step_message(run.id, key) is not None:
                return 0  # another process posted it meanwhile
            try:
                await post()
            except PlatformUnavailable:
                return 0  # the next round tries again
            return 1

    async def post_card(self, run: RunRecord) -> str | None:
        """Post an assignment's card and save its message; the reference, None if refused."""
        ref = await self.presenter.post(run.place.channel, await self.engine.assigned.card(run))
        await self.engine.remember_message(run.id, CARD_STEP, ref or NOT_POSTED)
        return ref

    async def progress(self, actor: Actor) -> str:
        """For a host: how many started and finished, and where the others are, as text."""
        run, progress = await self.engine.assigned.progress(actor.place, await actor.member())
        lesson = self.engine.lesson_of(run)
        due = (
            _("due {due}", due=utc_text(run.due_at)) if run.due_at is not None
            else _("no due time")
        )
        lines = [
            _("**Run {run} · {title} · {due}**", run=run.id, title=lesson.title, due=due),
            _(
                "{started} started · {finished} finished",
                started=progress.started, finished=progress.finished,
            ),
        ]
        for index, count in sorted(progress.at_step.items()):
            if count:
                step = lesson.steps[index]
                lines.append(_(
                    "• at step {number} · {title}: {count}",
                    number=index + 1, title=step.title, count=count,
                ))
        lines.append(_("Could not be messaged: {count}", count=progress.unreachable))
        return "\n".join(lines)

    async def open_here(self, place: Place) -> bool:
        """Whether the lesson going on in a channel is an open assignment."""
        try:
            run = await self.engine.run_in(place)
        except NoActiveRun:
            return False
        return self.engine.modes.allows(run, "continue")

    async def resume(self, actor: Actor) -> Outcome:
        """`/lesson continue`: the member's own step of the channel's assignment, privately."""
        own = await self.engine.assigned.resume(actor.place, await actor.member(False))
        return Outcome((OwnStepShown(own, own_text(own)),))

    def own(self, run_id: int, own: OwnStep) -> Outcome:
        """Start or a member's own Next: their step privately; the card's counts follow."""

        async def counted() -> None:
            self.presenter.redraw_soon((CARD_STEP, run_id), lambda: self.redraw_card(run_id))

        return Outcome((OwnStepShown(own, own_text(own)),), counted)

    async def redraw_card(self, run_id: int) -> None:
        """Redraw the assignment card in its run's channel, with its counts as stored now.

        The card shows the run closed once it is.
        """
        ref = await self.engine.step_message(run_id, CARD_STEP)
        run = await self.engine.run(run_id)
        if ref is None or ref == NOT_POSTED or run is None:
            return
        with speaking(run.language):
            card = await self.engine.assigned.card(run)
            await self.presenter.surface.edit(run.place.channel, ref, card)

