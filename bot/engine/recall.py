"""The delayed recall: a lesson's key ideas asked again, privately, days later, and what was kept.

A run carries a plan: delays after the lesson (`3d`, or `2d,9d` for spaced checks). When a
member's lesson ends (their pass finished, else the run ended), each delay makes one check,
due that long after and open for a window. Only members who answered something get one. A
check asks the lesson's `delayed_recall` questions; each answer is stored once and told right
or not, with its reason. When every check of a round has closed, the channel is shown, for
each question, the share right at the lesson and the share right later, among the same members.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from bot.engine.core import RunCore, require_host
from bot.engine.ports import AnswerStorage, RecallStorage
from bot.engine.steps.peer_round import AGAIN_KIND
from bot.engine.steps.prediction import CHOICE_KIND
from bot.i18n import N_, _, current_language, ngettext
from bot.model.errors import BadAddress, NoOpenCheck
from bot.model.records import (
    LaterAnswer,
    Member,
    Place,
    QuestionFigures,
    RecallCheck,
    RecallProgress,
    RecallRound,
    RoundFigures,
    RunRecord,
)
from lessons.schema import LaterQuestion, Lesson

RECALL_LEASE = timedelta(seconds=120)
"""How long a claimed check or round is its claimant's to send; after that, any process's."""
DEFAULT_WINDOW = timedelta(days=2)
"""How long a check stays open once it is due."""
STOP_STEP = "recall"
"""The step part of the address of a check's "No more of these" button."""


def span_text(seconds: int) -> str:
    """A delay as members read it: '3 days', '36 hours', '90 minutes'."""
    if seconds % 86400 == 0:
        return ngettext("{count} day", "{count} days", seconds // 86400)
    if seconds % 3600 == 0:
        return ngettext("{count} hour", "{count} hours", seconds // 3600)
    return ngettext("{count} minute", "{count} minutes", max(seconds // 60, 1))


def plan_line(plan: tuple[int, ...]) -> str:
    """What a run's first post says of its delayed recall (empty when it has none)."""
    if not plan:
        return ""
    when = _(" and again ").join(span_text(delay) for delay in plan)
    return _(
        "🔁 {when} after the lesson, each member who answered gets a one-minute "
        "private quiz on its key ideas, to see what stuck.",
        when=when,
    )


@dataclass(frozen=True)
class CheckView:
    """A member's check as it stands: the lesson, the check and its answers, whether stopped."""

    run: RunRecord
    lesson: Lesson
    check: RecallCheck
    stopped: bool = False

    @property
    def questions(self) -> list[LaterQuestion]:
        """The check's questions, in the lesson's order."""
        return list(self.lesson.delayed_recall)

    @property
    def next_question(self) -> LaterQuestion | None:
        """The first question not answered yet; None when the check is done."""
        return next((q for q in self.questions if q.id not in self.check.answers), None)

    @property
    def answered(self) -> list[tuple[LaterQuestion, str, bool]]:
        """Each question answered, in the lesson's order: the choice given, whether right."""
        answers = self.check.answers
        return [(q, *answers[q.id]) for q in self.questions if q.id in answers]

    @property
    def right(self) -> int:
        """How many of the member's answers were right."""
        return sum(correct for _, correct in self.check.answers.values())


@dataclass(frozen=True)
class KeptQuestion:
    """One question's figures: among members who answered it later and at the lesson."""

    question: LaterQuestion
    label: str
    members: int
    right_then: int
    right_later: int


@dataclass(frozen=True)
class Kept:
    """What a channel kept: a round's figures, question by question."""

    run: RunRecord
    lesson: Lesson
    round: RecallRound
    figures: RoundFigures

    @property
    def answered(self) -> int:
        """Members who answered at least one question of the round's checks."""
        return self.figures.answered

    @property
    def questions(self) -> tuple[KeptQuestion, ...]:
        """Each question's figures beside the question, in the figures' order."""
        asked = {question.id: question for question in self.lesson.delayed_recall}
        return tuple(
            KeptQuestion(question, self.lesson.step_by_id(question.asks_again).title,
                         row.members, row.right_then, row.right_later)
            for row in self.figures.questions
            if (question := asked.get(row.question_id)) is not None
        )


@dataclass(frozen=True)
class NextRound:
    """A round of a run's delayed recall whose checks have not all closed yet."""

    round: int
    delay_seconds: int
    due_by: datetime | None
    """When every member's check of the round is due; None while the lesson goes on."""
    closes_at: datetime | None
    """When the round's last check closes and its figures can be shown."""


@dataclass(frozen=True)
class RecallStanding:
    """Where a run's delayed recall stands now: each closed round's figures, the next round."""

    run: RunRecord
    now: datetime
    kept: tuple[Kept, ...]
    """The figures of each round whose checks have all closed, in the plan's order."""
    next: NextRound | None
    """The first round still to close; None once every round has closed."""


class DelayedRecall:
    """Planning, sending and answering members' checks; each round's figures for the channel."""

    def __init__(
        self, core: RunCore, store: RecallStorage, votes: AnswerStorage,
        window: timedelta = DEFAULT_WINDOW,
    ) -> None:
        self.core = core
        self.store = store
        self.votes = votes
        self.window = window

    async def plan_due(self) -> int:
        """Plan the checks every run owes now; how many they owe (new or planned before).

        Checks never to send now (their window passed, their member stopped) are settled
        first, so finding the due ones does not read them again.
        """
        now = self.core.clock()
        await self.store.settle_checks(now)
        planned = 0
        for run in await self.store.runs_to_plan(now):
            planned += await self.plan_run(run)
        return planned

    async def plan_run(self, run: RunRecord) -> int:
        """Plan the checks one run owes now; how many it owes (new or planned before)."""
        return await self.store.plan_checks(run, self.window)

    async def due_checks(self, limit: int, platform: str | None = None) -> list[RecallCheck]:
        """Up to `limit` checks due now and not sent (of runs on `platform`), oldest first."""
        return await self.store.due_checks(self.core.clock(), limit, platform)

    async def claim(self, check: RecallCheck, holder: str, gone: Collection[str] = ()) -> bool:
        """Claim a due check for `holder` to send (`RECALL_LEASE`); False: not to send."""
        return bool(await self.claim_all([check], holder, gone))

    async def claim_all(
        self, checks: Sequence[RecallCheck], holder: str, gone: Collection[str] = ()
    ) -> list[RecallCheck]:
        """Claim due checks for `holder` to send, in one write; those it got, in their order."""
        lease = RECALL_LEASE.total_seconds()
        ids = [check.id for check in checks]
        got = await self.store.claim_checks(ids, holder, self.core.clock(), lease, gone)
        return [check for check in checks if check.id in got]

    async def sent(self, check: RecallCheck, reached: bool) -> None:
        """Note that a check was sent, or that its member cannot be messaged (never retried)."""
        await self.store.check_sent(check.id, self.core.clock(), reached)

    async def unclaim(self, check: RecallCheck, holder: str) -> None:
        """Give back a claimed check the platform did not answer, for a later round."""
        await self.store.release_check(check.id, holder)

    async def holders(self) -> list[str]:
        """The processes holding claims of checks or rounds not yet done."""
        return await self.store.recall_holders()

    async def view(self, check: RecallCheck) -> CheckView:
        """A check as its member sees it, in the language spoken to them now (theirs alone)."""
        run = await self.core.run(check.run_id, cached=True)
        if run is None:
            raise NoOpenCheck()
        return CheckView(run, self.core.lesson_of(run, current_language()), check)

    async def answer(self, run_id: int, question_id: str, choice_id: str, member: Member
                     ) -> CheckView:
        """Store a member's answer to a question of their open check; the check after it.

        A check that is not theirs, or has closed, changes nothing. An answer given before
        counts: the first one stands, and the member is shown it again with the others.
        """
        view = await self._open(run_id, member)
        question = next((q for q in view.questions if q.id == question_id), None)
        choices = question.choices if question is not None else []
        choice = next((c for c in choices if c.id == choice_id), None)
        if question is None or choice is None:
            raise BadAddress()
        correct = choice.id == question.correct_choice.id
        await self.store.save_recall_answer(
            view.check.id, question.id, choice.id, correct, self.core.clock(), member.locale
        )
        check = await self.store.open_check(run_id, member.user_id, self.core.clock())
        if check is None:
            raise NoOpenCheck()
        return CheckView(view.run, view.lesson, check)

    async def stop(self, run_id: int, member: Member) -> CheckView:
        """No more checks from the run's channel for this member; their check as it stands."""
        view = await self._open(run_id, member)
        await self.store.stop_recalls(run_id, member.user_id, self.core.clock())
        return CheckView(view.run, view.lesson, view.check, stopped=True)

    async def _open(self, run_id: int, member: Member) -> CheckView:
        check = await self.store.open_check(run_id, member.user_id, self.core.clock())
        if check is None:
            raise NoOpenCheck()
        return await self.view(check)

    async def rounds_due(self, platform: str | None = None) -> list[RecallRound]:
        """Rounds (of runs on `platform`) whose checks have all closed, figures not posted."""
        return await self.store.rounds_to_post(self.core.clock(), platform)

    async def claim_round(
        self, recall_round: RecallRound, holder: str, gone: Collection[str] = ()
    ) -> bool:
        """Claim a round's post for `holder`; False: another process posts it, or did."""
        lease = RECALL_LEASE.total_seconds()
        return await self.store.claim_round(recall_round, holder, self.core.clock(), lease, gone)

    async def round_posted(self, kept: Kept) -> None:
        """Note that a round's figures were posted, never again; later views show them so."""
        await self.store.round_posted(kept.round, self.core.clock(), kept.figures)

    async def unclaim_round(self, recall_round: RecallRound, holder: str) -> None:
        """Give back a round whose post the platform did not answer."""
        await self.store.release_round(recall_round, holder)

    async def kept(self, recall_round: RecallRound) -> Kept | None:
        """A round's figures, per question right at the lesson and later; None: run gone.

        Once the round's post is made, the figures it showed.
        """
        run = await self.core.run(recall_round.run_id)
        if run is None:
            return None
        frozen = await self.store.posted_figures(run.id)
        return await self._kept(run, recall_round, frozen.get(recall_round.round))

    async def standing(self, run_id: int) -> RecallStanding | None:
        """How a run's delayed recall stands now; None for a run without one (or gone).

        A round has closed once its last check has: when the channel's post of it is due,
        whether or not it went out yet. Before the rounds are stored (a run just ended),
        their times are the run's end plus each delay, and the window. A round posted shows
        the figures its post showed; one not posted yet, its figures as they stand.
        """
        run = await self.core.run(run_id)
        if run is None or not run.recall_plan:
            return None
        now = self.core.clock()
        closings = await self.store.round_closings(run.id) if run.ended_at else {}
        frozen = await self.store.posted_figures(run.id) if run.ended_at else {}
        kept: list[Kept] = []
        for number, delay in enumerate(run.recall_plan, start=1):
            due_by = run.ended_at + timedelta(seconds=delay) if run.ended_at else None
            closes_at = closings.get(number) or (due_by + self.window if due_by else None)
            if closes_at is None or closes_at > now:
                upcoming = NextRound(number, delay, due_by, closes_at)
                return RecallStanding(run, now, tuple(kept), upcoming)
            recall_round = RecallRound(run.id, number, delay)
            kept.append(await self._kept(run, recall_round, frozen.get(number)))
        return RecallStanding(run, now, tuple(kept), None)

    async def _kept(
        self, run: RunRecord, recall_round: RecallRound, frozen: RoundFigures | None = None
    ) -> Kept:
        """A round's figures for a run already loaded: `frozen`, else counted from the store."""
        lesson = self.core.lesson_of(run)
        if frozen is not None:
            return Kept(run, lesson, recall_round, frozen)
        later = await self.store.later_answers(run.id, recall_round.round)
        asked = [s.id for q in lesson.delayed_recall for s in lesson.asking(q.asks_again)]
        then = await self.store.lesson_choices(run.id, asked)
        rows = tuple(_question_figures(lesson, q, later, then) for q in lesson.delayed_recall)
        answered = len({answer.member for answer in later})
        return Kept(run, lesson, recall_round, RoundFigures(answered, rows))

    async def right_then(
        self, run: RunRecord, question: LaterQuestion, user_id: str
    ) -> bool | None:
        """Whether a member's last answer at the run's lesson to a question's idea was right.

        None: they answered none of the steps asking it.
        """
        lesson = self.core.lesson_of(run)
        votes = {
            step.id: await self.votes.member_votes(run.id, step.id, user_id)
            for step in lesson.asking(question.asks_again)
        }
        return right_at_lesson(lesson, question, lambda step: final_vote(votes.get(step, {})))

    async def progress_here(self, place: Place, host: Member) -> tuple[RunRecord, RecallProgress]:
        """For a host: the channel's run (or latest) and how its recall checks stand."""
        require_host(host, N_("see the lesson's progress"))
        run = await self.core.run_in(place, or_latest=True)
        return run, await self.store.recall_progress(run.id)

    async def progress(self, run_id: int) -> RecallProgress:
        """How many of a run's checks are planned, sent, answered and unreachable."""
        return await self.store.recall_progress(run_id)


AnswerAt = Callable[[str], str | None]
"""A member's answer at a step of the lesson, by the step's id; None where they gave none."""


def right_at_lesson(lesson: Lesson, question: LaterQuestion, answer_at: AnswerAt) -> bool | None:
    """Whether a member's last answer at the lesson to the idea a question asks was right.

    Their last answer is the one at the latest step asking that idea that they answered: a
    step asking it again near the lesson's end comes after the opening prediction. None: they
    answered none of them.
    """
    asking = lesson.asking(question.asks_again)
    answers = (answer_at(step.id) for step in reversed(asking))
    last = next((answer for answer in answers if answer is not None), None)
    if last is None:
        return None
    return any(c.id == last and c.correct for c in getattr(asking[0], "choices", ()))


def _final_vote(
    then: dict[tuple[int, str], dict[str, str]], member: int, step_id: str
) -> str | None:
    """A member's final answer at a step, from every member's votes by (member, step)."""
    return final_vote(then.get((member, step_id), {}))


def final_vote(votes: dict[str, str]) -> str | None:
    """A member's final answer at a step, from their votes there by kind: again, else first."""
    return votes.get(AGAIN_KIND, votes.get(CHOICE_KIND))


def _question_figures(
    lesson: Lesson,
    question: LaterQuestion,
    later: list[LaterAnswer],
    then: dict[tuple[int, str], dict[str, str]],
) -> QuestionFigures:
    """A question's figures among the members who answered it later and at the lesson."""
    members = right_then = right_later = 0
    for answer in later:
        if answer.question_id != question.id:
            continue
        right = right_at_lesson(lesson, question, partial(_final_vote, then, answer.member))
        if right is None:
            continue
        members += 1
        right_then += right
        right_later += answer.correct
    return QuestionFigures(question.id, members, right_then, right_later)
