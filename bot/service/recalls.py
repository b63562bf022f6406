"""The delayed recall for every platform: sending members' checks, their clicks, the round's post.

Each tick of the timer loop plans the checks runs owe, sends up to `pace` of those due (so a
thousand checks due at once go out at the configured pace, not in one burst), and posts the
figures of every round whose checks have all closed. A check goes to the member privately (a
direct message), with the question's choices and "No more of these" as buttons; each click
redraws that message with whether the answer was right, and the next question.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine import (
    STOP_STEP,
    Action,
    Address,
    CheckView,
    Kept,
    KeptQuestion,
    LessonEngine,
    NextRound,
    RecallStanding,
    plan_line,
    span_text,
)
from bot.i18n import N_, _, ngettext, percent, speaking
from bot.model import (
    Button,
    Chart,
    RecallCheck,
    RecallProgress,
    RecallRound,
    RevealCard,
    RunRecord,
    Section,
    Series,
    StepCard,
    SummaryCard,
)
from bot.service.assignments import TEND_EVERY, utc_text
from bot.service.languages import member_language
from bot.service.posting import holder_gone
from bot.service.presenter import Presenter
from bot.service.surface import PlatformUnavailable
from lessons.schema import LaterQuestion

log = logging.getLogger(__name__)

DEFAULT_PACE = 20
"""Checks sent per tick of the timer loop (about a second) by one process, at most."""
STOP_LABEL = N_("No more of these")
KIND = "recall"


def check_card(view: CheckView) -> StepCard:
    """A member's check as their private message shows it: each verdict, the next question."""
    check, lesson, question = view.check, view.lesson, view.next_question
    asked, answered = len(view.questions), view.answered
    lines = [] if answered or view.stopped else [_opening(view)]
    lines += [_verdict(*answer) for answer in answered]
    if view.stopped:
        lines.append(_("Done: you will get no more of these checks from this channel."))
    elif question is None:
        lines.append(_(
            "That's the check: {right} of {asked} right. When it closes ({closes}), the "
            "channel sees what it kept, as totals only, never names.",
            right=view.right, asked=asked, closes=utc_text(check.closes_at),
        ))
    sections = () if question is None or view.stopped else (Section("", question.text),)
    buttons = () if question is None or view.stopped else _buttons(view)
    number = asked if question is None else len(check.answers) + 1
    return StepCard(
        run_id=check.run_id, step_id=question.id if question else STOP_STEP, kind=KIND,
        number=number, total=asked, title=_("Recall check · {title}", title=lesson.title),
        body="\n\n".join(lines), sections=sections, buttons=buttons, unit=_("Question"),
    )


def _opening(view: CheckView) -> str:
    run, asked = view.run, len(view.questions)
    plan, number = run.recall_plan, view.check.round
    values = {"channel": run.place.channel, "asked": asked,
              "closes": utc_text(view.check.closes_at)}
    if 0 < number <= len(plan):
        return _("{span} ago you took this lesson in <#{channel}>. Here are {asked} questions "
                 "on its key ideas, about a minute in all; the check is open until {closes}. "
                 "The channel only ever sees totals, never names.",
                 span=span_text(plan[number - 1]), **values)
    return _("Lately you took this lesson in <#{channel}>. Here are {asked} questions on its "
             "key ideas, about a minute in all; the check is open until {closes}. The channel "
             "only ever sees totals, never names.", **values)


def _verdict(question: LaterQuestion, choice_id: str, right: bool) -> str:
    label = next((c.label for c in question.choices if c.id == choice_id), choice_id)
    if right:
        return _("✅ “{label}”: right. {why}", label=label, why=question.why)
    return _(
        "❌ “{label}”: not quite; it was “{right}”. {why}",
        label=label, right=question.correct_choice.label, why=question.why,
    )


def _buttons(view: CheckView) -> tuple[Button, ...]:
    question = view.next_question
    assert question is not None
    run_id = view.check.run_id
    choices = tuple(
        Button(Address(run_id, question.id, Action.RECALL, choice.id).encode(), choice.label,
               row=index // 5)
        for index, choice in enumerate(question.choices)
    )
    stop = Button(Address(run_id, STOP_STEP, Action.NOMORE).encode(), _(STOP_LABEL), row=2)
    return (*choices, stop)


def kept_card(kept: Kept) -> SummaryCard:
    """A round's figures for the channel: each question, right at the lesson and right later."""
    later = span_text(kept.round.delay_seconds)
    shown = [row for row in kept.questions if row.members]
    lines = [ngettext(
        "{count} member answered the recall check {later} after “{title}”. Among the same "
        "members:",
        "{count} members answered the recall check {later} after “{title}”. Among the same "
        "members:",
        kept.answered, later=later, title=kept.lesson.title,
    )]
    lines += [_kept_line(row, later) for row in shown]
    if not shown:
        lines.append(_("No one who answered at the lesson answered the check, so there is "
                       "nothing to compare."))
    chart = _kept_chart(shown, later) if shown else None
    title = _("What the channel kept, {later} on", later=later)
    return SummaryCard(run_id=kept.run.id, title=title,
                       lines=tuple(lines), members=kept.answered, chart=chart, finished=True)


def _share(count: int, total: int) -> float:
    return 100.0 * count / total if total else 0.0


def _kept_line(row: KeptQuestion, later: str) -> str:
    then, now = _share(row.right_then, row.members), _share(row.right_later, row.members)
    return _(
        "• {label}: right at the lesson {then} of {members} ({then_share}); {later} later "
        "{now} of {members} ({now_share}).",
        label=row.label, then=row.right_then, members=row.members, then_share=percent(then / 100),
        later=later, now=row.right_later, now_share=percent(now / 100),
    )


def _kept_chart(rows: list[KeptQuestion], later: str) -> Chart:
    then = tuple(_share(r.right_then, r.members) for r in rows)
    now = tuple(_share(r.right_later, r.members) for r in rows)
    return Chart(
        title=_("Right at the lesson and {later} later (same members)", later=later),
        labels=tuple(row.label for row in rows),
        series=(
            Series(_("at the lesson"), then, ends=tuple(
                _("{count} of {total}", count=r.right_then, total=r.members) for r in rows
            )),
            Series(_("{later} later", later=later), now, ends=tuple(
                _("{count} of {total}", count=r.right_later, total=r.members) for r in rows
            )),
        ),
        value_label=_("% right"),
    )


def with_recall(summary: SummaryCard, standing: RecallStanding | None) -> SummaryCard:
    """A run's results with its delayed recall: what each closed round kept, then what comes.

    Each closed round follows the results as the channel's post of it shows it; a round
    still to close adds a line saying when its checks go out or until when they are open.
    """
    if standing is None:
        return summary
    kept = tuple(kept_reveal(round_kept) for round_kept in standing.kept)
    upcoming, plan = standing.next, standing.run.recall_plan
    coming = () if upcoming is None else (next_round_line(upcoming, plan, standing.now),)
    return replace(summary, lines=summary.lines + coming, reveals=summary.reveals + kept)


def kept_reveal(kept: Kept) -> RevealCard:
    """A round's figures, as the posted `kept_card` has them, to show after a run's results."""
    card = kept_card(kept)
    return RevealCard(run_id=card.run_id, step_id=KIND, title=card.title, explanation="",
                      answered=card.members, notes=card.lines, chart=card.chart)


def next_round_line(upcoming: NextRound, plan: tuple[int, ...], now: datetime) -> str:
    """When a round of recall checks goes out, or until when it is open (`plan`: the run's)."""
    if upcoming.due_by is None or upcoming.closes_at is None:
        return _("{plan} What the channel kept shows here once the checks close.",
                 plan=plan_line(plan))
    later = span_text(upcoming.delay_seconds)
    if now < upcoming.due_by:
        return _("🔁 The recall check {later} after the lesson goes out by {due} and closes "
                 "{closes}; what the channel kept shows here then.",
                 later=later, due=utc_text(upcoming.due_by), closes=utc_text(upcoming.closes_at))
    return _("🔁 The recall check {later} after the lesson is open until {closes}; what the "
             "channel kept shows here once it closes.",
             later=later, closes=utc_text(upcoming.closes_at))


def progress_line(progress: RecallProgress) -> str:
    """A host's line on a run's delayed recall: checks sent, answered, unreachable."""
    if not progress.planned:
        return ""
    return _("Recall checks: {sent} sent of {planned} planned, {answered} answered, "
             "{unreachable} unreachable.", sent=progress.sent, planned=progress.planned,
             answered=progress.answered, unreachable=progress.unreachable)


class SendWindow:
    """At most `pace` sends reach the platform in any second, however long each takes.

    A send holds one of `pace` places from its start until a second after it ended, so sends
    may overlap while none can make a second hold more than `pace` of them.
    """

    def __init__(self, pace: int, span: float = 1.0) -> None:
        self.pace = pace
        self.span = span
        self._ended: deque[float] = deque()
        self._in_flight = 0
        self._changed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold a place for one send: wait for one, keep it until a second after the send."""
        async with self._changed:
            while self._held() >= self.pace:
                oldest = self._ended[0] + self.span - time.monotonic() if self._ended else None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), oldest)
            self._in_flight += 1
        try:
            yield
        finally:
            async with self._changed:
                self._in_flight -= 1
                self._ended.append(time.monotonic())
                self._changed.notify_all()

    def _held(self) -> int:
        """Places held now: sends in flight, and those that ended less than a second ago."""
        while self._ended and self._ended[0] <= time.monotonic() - self.span:
            self._ended.popleft()
        return self._in_flight + len(self._ended)


class Recalls:
    """Sends members' checks at a pace, answers their clicks, posts each round once."""

    def __init__(
        self, engine: LessonEngine, presenter: Presenter, pace: int = DEFAULT_PACE,
        tend_every: timedelta = TEND_EVERY,
    ) -> None:
        """Recall checks on `engine`, shown through `presenter`.

        `pace`: how many checks one process sends a second (a tick of its timer loop);
        `tend_every`: how often it plans checks and posts rounds too.
        """
        self.engine = engine
        self.presenter = presenter
        self.pace = pace
        self.tend_every = tend_every
        self.window = SendWindow(pace)
        self._tended: dict[str | None, datetime] = {}

    async def tend(self, platform: str | None = None) -> int:
        """Send up to `pace` due checks; each `tend_every`, plan checks and post rounds too.

        How many checks and rounds went out.
        """
        now, last = self.engine.clock(), self._tended.get(platform)
        if last is None or now - last >= self.tend_every:
            self._tended[platform] = now
            await self.engine.recall.plan_due()
            return await self.send_due(platform) + await self.post_rounds(platform)
        return await self.send_due(platform)

    async def send_due(self, platform: str | None = None) -> int:
        """Send up to `pace` due checks, claimed together first; how many reached their member.

        The claims take one write; then the checks go one at a time, each in its turn in the
        window, each marked sent as it went: no second holds more than `pace`, and a process
        killed mid-send leaves at most one check sent but not yet marked, which the next
        process sends again (the rest it claimed are taken over once it is gone).
        """
        recall, holder = self.engine.recall, self.presenter.turns.holder
        due = await recall.due_checks(self.pace, platform)
        if not due:
            return 0
        gone = [other for other in await recall.holders() if holder_gone(other)]
        runs = {run_id: await self.engine.run(run_id) for run_id in {c.run_id for c in due}}
        sent = 0
        for check in await recall.claim_all([c for c in due if runs[c.run_id]], holder, gone):
            run = runs[check.run_id]
            assert run is not None
            with speaking(member_language(check.locale, run)):
                sent += await self._send(run, check, holder)
        return sent

    async def _send(self, run: RunRecord, check: RecallCheck, holder: str) -> int:
        """Send one claimed check, in its turn: marked sent (1), unreachable, or given back."""
        recall = self.engine.recall
        card = check_card(await recall.view(check))
        try:
            async with self.window.turn():
                reached = await self.presenter.surface.message_member(
                    run.place, check.user_id, card.body, card
                )
        except PlatformUnavailable:
            log.warning("a recall check of run %s got no answer; it is sent later", run.id)
            await recall.unclaim(check, holder)
            return 0
        await recall.sent(check, reached)
        return int(reached)

    async def post_rounds(self, platform: str | None = None) -> int:
        """Post the figures of each round whose checks have all closed, once; how many."""
        recall, holder = self.engine.recall, self.presenter.turns.holder
        gone = [other for other in await recall.holders() if holder_gone(other)]
        posted = 0
        for recall_round in await recall.rounds_due(platform):
            run = await self.engine.run(recall_round.run_id)
            if run is None:
                continue
            if await recall.claim_round(recall_round, holder, gone):
                with speaking(run.language):
                    posted += await self._post_round(run, recall_round, holder)
        return posted

    async def _post_round(self, run: RunRecord, recall_round: RecallRound, holder: str) -> int:
        recall = self.engine.recall
        kept = await recall.kept(recall_round)
        if kept is None:
            return 0
        try:
            await self.presenter.post(run.place.channel, kept_card(kept))
        except PlatformUnavailable:
            log.warning("the recall figures of run %s got no answer; posted later", run.id)
            await recall.unclaim_round(recall_round, holder)
            return 0
        await recall.round_posted(kept)
        return 1

