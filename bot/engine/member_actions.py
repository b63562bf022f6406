"""What members do at a step: the kind of step handles it, through the services here.

A member's click on a step's own button goes to the step's kind (`KindOfStep.act`), as does a
typed answer (`KindOfStep.answer`); the kind casts votes through the run's pace, takes the
member's turn at the checker and writes through the stores that `MemberActions` holds.
"""

from __future__ import annotations

from bot.engine.addresses import Action, Address
from bot.engine.cards import takes_answers
from bot.engine.checks import CheckTurns
from bot.engine.core import RunCore, refusal
from bot.engine.modes import RunModes
from bot.engine.ports import AnswerChecker, AnswerStorage, ReasonStorage
from bot.engine.steps import AttemptVerdicts, Reply, RunData, kind_of, offer_of
from bot.i18n import N_
from bot.model.errors import BadAddress, NoActiveRun, WrongStep
from bot.model.records import Member, Phase, Place, RunRecord, VoteResult
from bot.model.views import Receipt
from lessons.schema import DEFAULT_MAX_TRIES, Step


class MemberActions:
    """Operations any member of the channel may perform."""

    def __init__(
        self,
        core: RunCore,
        answers: AnswerStorage,
        reasons: ReasonStorage,
        checker: AnswerChecker,
        verdicts: AttemptVerdicts,
        modes: RunModes,
        default_max_tries: int = DEFAULT_MAX_TRIES,
    ) -> None:
        """`default_max_tries` caps free-answer tries where the lesson sets no `max_tries`."""
        self.core = core
        self.modes = modes
        self.answers = answers
        self.reasons = reasons
        self.checker = checker
        self.verdicts = verdicts
        self.default_max_tries = default_max_tries
        self.turns = CheckTurns()

    async def act(self, address: Address, member: Member) -> Reply:
        """A member's press of a step's own button, handled by the kind of that step."""
        kind = kind_of(await self.core.known_step(address.run_id, address.step_id))
        if address.action not in kind.takes:
            raise WrongStep(offer_of(address.action))
        return await kind.act(self, address, member)

    async def press(self, address: Address, member: Member) -> Receipt:
        """A press that answers with a private receipt (not one that opens a form)."""
        reply = await self.act(address, member)
        if not isinstance(reply, Receipt):
            raise WrongStep(offer_of(address.action))
        return reply

    async def more(self, run_id: int, step_id: str, member: Member, data: RunData) -> Receipt:
        """A step's longer detail; a question's only once the run's mode opens it to `member`.

        A live run opens it with the question's reveal; an assigned one once the member
        answered it. Detail drawn from the run's answers is read from `data`. Nothing is stored.
        """
        step = await self.core.known_step(run_id, step_id)
        run, kind = await self.known_run(run_id), kind_of(step)
        if not kind.has_more:
            raise WrongStep(N_("more to read"))
        if takes_answers(step):
            await self.modes.of(run).require_detail(run, step, member)
        return Receipt(await kind.more(data, run), run_id, step.id, counted=False)

    async def submit_answer(
        self, run_id: int, step_id: str, member: Member, text: str, place: Place | None = None
    ) -> Receipt:
        """A member's typed answer, taken by the kind of the step the run has open for them."""
        if place is not None:
            await self.require_place(run_id, place, Action.ANSWER)
        run, step = await self.open_step(run_id, step_id, member)
        return await kind_of(step).answer(self, run, member, text)

    async def cast_vote(
        self,
        run_id: int,
        step: Step,
        member: Member,
        kind: str,
        value: str,
        blocked_by: str | None = None,
        phase: Phase = Phase.OPEN,
    ) -> VoteResult:
        """Store a vote only while `step` is the run's open step (checked as it is written).

        `phase` is the phase a live run's step must be in: a second vote is cast in `AGAIN`.
        """
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        expected = await self.modes.of(run).pace.expected(run, step, member, phase)
        result = await self.answers.record_vote(
            run_id, step.id, member, kind, value, expected, blocked_by
        )
        if not result.accepted and not result.blocked:
            raise refusal(result.run, self.core.lesson_of(run).steps.index(step))
        return result

    async def require_place(self, run_id: int, place: Place, action: Action) -> None:
        """Refuse a button or form used where the run's mode does not take it (a forged one)."""
        run = await self.core.run(run_id, cached=True)
        if run is None or not self.modes.of(run).pace.admits(run, place, action):
            raise BadAddress()

    async def known_run(self, run_id: int) -> RunRecord:
        """The run as first loaded (its lesson, host and place, not where it stands): no query."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        return run

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and the step, which must take this member's answers now (by its mode)."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        return await self.modes.of(run).pace.open_step(run_id, step_id, member)
