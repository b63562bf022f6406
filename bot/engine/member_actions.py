"""What members do: choose, rate attempts, run the checker, submit answers."""

from __future__ import annotations

from bot.engine.addresses import Action
from bot.engine.cards import more_receipt, takes_answers
from bot.engine.checks import CheckTurns, checker_failures
from bot.engine.core import RunCore, refusal
from bot.engine.modes import RunModes
from bot.engine.ports import AnswerChecker, AnswerStorage
from bot.engine.steps import kind_of
from bot.engine.verdicts import AttemptVerdicts
from bot.model.errors import (
    BadAddress,
    BadInput,
    NoActiveRun,
    TriesUsedUp,
    UnknownChoice,
)
from bot.model.records import (
    Member,
    Place,
    RunRecord,
    SubmittedAnswer,
    VoteResult,
)
from bot.model.views import Receipt
from bot.verifier.verdict import Grade, Verdict
from lessons.schema import (
    DEFAULT_MAX_TRIES,
    Attempt,
    FreeAnswerStep,
    PredictionStep,
    Step,
    VerifierStep,
)

MAX_TYPED_ANSWER = 200
CHOICE_KIND = "choice"
RATINGS_LOCKED = "ratings-locked"  # vote kind: the member has seen a checker verdict here
LOCKED_TEXT = (
    "You have run the checker, so your ratings are locked: the results compare thumbs "
    "given before seeing any checker verdict."
)
JUST_LOCKED_TEXT = "Your 👍/👎 are now locked, as you gave them before seeing the checker."
CHANGE_UNTIL_REVEAL = "You can change your mind until the reveal."
RESULTS_AT_REVEAL = "Results come at the reveal."
ANSWER_AT_REVEAL = "The answer comes at the reveal."


def rate_kind(attempt_id: str) -> str:
    """The vote kind of a thumbs rating on one attempt."""
    return f"rate:{attempt_id}"


def find_attempt(step: VerifierStep, attempt_id: str) -> Attempt:
    """An attempt of a verifier step by id."""
    for attempt in step.attempts:
        if attempt.id == attempt_id:
            return attempt
    raise UnknownChoice(attempt_id)


class MemberActions:
    """Operations any member of the channel may perform."""

    def __init__(
        self,
        core: RunCore,
        answers: AnswerStorage,
        checker: AnswerChecker,
        verdicts: AttemptVerdicts,
        modes: RunModes,
        default_max_tries: int = DEFAULT_MAX_TRIES,
    ) -> None:
        """`default_max_tries` caps free-answer tries where the lesson sets no `max_tries`."""
        self.core = core
        self.modes = modes
        self.answers = answers
        self.checker = checker
        self.verdicts = verdicts
        self.default_max_tries = default_max_tries
        self.turns = CheckTurns()

    async def choose(self, run_id: int, step_id: str, member: Member, choice_id: str) -> Receipt:
        """Record (or change) a member's choice on a prediction question."""
        step = kind_of(await self.core.known_step(run_id, step_id)).for_choosing()
        choice = next((c for c in step.choices if c.id == choice_id), None)
        if choice is None:
            raise UnknownChoice(choice_id)
        result = await self.cast_vote(run_id, step, member, CHOICE_KIND, choice.id)
        previous = _label_of(step, result.previous)
        if previous and previous != choice.label:
            text = f"Changed your answer to **{choice.label}** (was {previous})."
            return Receipt(text, run_id, step.id, until_reveal=RESULTS_AT_REVEAL)
        text = f"You chose **{choice.label}**."
        return Receipt(text, run_id, step.id, until_reveal=CHANGE_UNTIL_REVEAL)

    async def more(self, run_id: int, step_id: str, member: Member) -> Receipt:
        """A step's longer detail; a question's only once the run's mode opens it to `member`.

        A live run opens it with the question's reveal; an assigned one once the member
        answered it. Nothing is stored.
        """
        step = await self.core.known_step(run_id, step_id)
        run = await self.core.run(run_id, cached=True)
        if run is not None and takes_answers(step) and step.more:
            await self.modes.of(run).require_detail(run, step, member)
        return more_receipt(run_id, step)

    async def rate(
        self, run_id: int, step_id: str, member: Member, attempt_id: str, thumbs_up: bool
    ) -> Receipt:
        """Record a member's thumbs-up or thumbs-down on a sample attempt, as a human rater."""
        step = kind_of(await self.core.known_step(run_id, step_id)).for_rating()
        attempt = find_attempt(step, attempt_id)
        value = "up" if thumbs_up else "down"
        kind = rate_kind(attempt.id)
        result = await self.cast_vote(run_id, step, member, kind, value, blocked_by=RATINGS_LOCKED)
        if result.blocked:
            raise BadInput(LOCKED_TEXT)
        left = await self.unrated(run_id, step, member)
        text = rated_text(attempt.label, thumbs_up, left, len(step.attempts))
        return Receipt(text, run_id, step.id)

    async def run_checker(
        self, run_id: int, step_id: str, member: Member, attempt_id: str
    ) -> Receipt:
        """Run the checker on a sample attempt, once the member has rated every attempt."""
        run, current = await self.open_step(run_id, step_id, member)
        step = kind_of(current).for_rating()
        attempt = find_attempt(step, attempt_id)
        left = await self.unrated(run.id, step, member)
        if left:
            raise BadInput(blind_refusal(left, len(step.attempts)))
        with self.turns.turn(run.place, member.user_id):
            verdict = await self.verdicts.attempt_verdict(
                run.lesson_id, run.lesson_version, step, attempt
            )
            lock = await self.cast_vote(
                run.id, step, member, RATINGS_LOCKED, attempt.id, blocked_by=RATINGS_LOCKED
            )
            await self.answers.record_check(run.id, step.id, member, attempt.id, verdict)
        text = checker_text(attempt.label, verdict)
        if not lock.blocked:
            text = f"{text}\n{JUST_LOCKED_TEXT}"
        return Receipt(text, run.id, step.id, verdict.reward)

    async def unrated(self, run_id: int, step: VerifierStep, member: Member) -> list[Attempt]:
        """The attempts of a verifier step this member has not rated yet."""
        votes = await self.answers.member_votes(run_id, step.id, member.user_id)
        return [attempt for attempt in step.attempts if rate_kind(attempt.id) not in votes]

    async def submit_answer(
        self, run_id: int, step_id: str, member: Member, text: str, place: Place | None = None
    ) -> Receipt:
        """Grade a member's typed answer, up to the step's try cap; every try is kept."""
        if place is not None:
            await self.require_place(run_id, place, Action.ANSWER)
        run, current = await self.open_step(run_id, step_id, member)
        step = kind_of(current).for_answering()
        answer = text.strip()
        if not answer or len(answer) > MAX_TYPED_ANSWER:
            raise BadInput(f"Type an answer of 1 to {MAX_TYPED_ANSWER} characters.")
        cap = self.tries_cap(step)
        with self.turns.turn(run.place, member.user_id):
            stored = await self._graded_try(run.id, step, member, answer, cap)
        tries_left = max(0, cap - stored.attempt_no)
        text = answer_text(stored.attempt_no, stored.verdict, tries_left)
        waits = ANSWER_AT_REVEAL if tries_left == 0 and not stored.verdict.reward else ""
        return Receipt(
            text, run.id, step.id, stored.verdict.reward, tries_left, until_reveal=waits
        )

    def tries_cap(self, step: FreeAnswerStep) -> int:
        """How many tries each member gets: the lesson's `max_tries`, else the settings' cap."""
        return step.max_tries if "max_tries" in step.model_fields_set else self.default_max_tries

    async def _graded_try(
        self, run_id: int, step: FreeAnswerStep, member: Member, answer: str, cap: int
    ) -> SubmittedAnswer:
        """Grade and store one try while under the cap (the store checks the cap as it writes)."""
        if await self.answers.count_tries(run_id, step.id, member.user_id) >= cap:
            raise TriesUsedUp(cap)
        with checker_failures():
            verdict = await self.checker.check_answer(
                answer, step.gold, unit=step.unit, accept=step.accept
            )
        return await self.answers.record_free_answer(run_id, step.id, member, answer, verdict, cap)

    async def cast_vote(
        self,
        run_id: int,
        step: Step,
        member: Member,
        kind: str,
        value: str,
        blocked_by: str | None = None,
    ) -> VoteResult:
        """Store a vote only while `step` is the run's open step (checked as it is written)."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        expected = await self.modes.of(run).pace.expected(run, step, member)
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

    async def open_step(self, run_id: int, step_id: str, member: Member) -> tuple[RunRecord, Step]:
        """The run and the step, which must take this member's answers now (by its mode)."""
        run = await self.core.run(run_id, cached=True)
        if run is None:
            raise NoActiveRun()
        return await self.modes.of(run).pace.open_step(run_id, step_id, member)


def checker_text(label: str, verdict: Verdict) -> str:
    """What a member sees after running the checker on an attempt."""
    lines = [
        f"**Checker on {label}**",
        f"It read the final answer as: **{verdict.read or '(nothing it could read)'}**",
        f"Gold answer: **{verdict.gold}**",
        f"Reward: **{verdict.reward}** {'✅' if verdict.reward else '❌'}",
    ]
    if verdict.reason:
        lines.append(verdict.reason)
    return "\n".join(lines)


def rated_text(label: str, thumbs_up: bool, left: list[Attempt], total: int) -> str:
    """What a member sees after rating an attempt: how many are left before the checker opens."""
    head = f"You gave **{label}** a {'👍' if thumbs_up else '👎'}."
    if left:
        return f"{head} {_left_to_rate(left)} The checker opens once you have rated all {total}."
    return (
        f"{head} You have rated all {total}: now run the checker on each and compare. "
        "Your first checker run locks your ratings."
    )


def blind_refusal(left: list[Attempt], total: int) -> str:
    """Why the checker stays closed: the member has not rated every attempt yet."""
    return (
        f"Rate all {total} attempts with 👍 or 👎 first, so your ratings stay blind to the "
        f"checker. {_left_to_rate(left)}"
    )


def _left_to_rate(left: list[Attempt]) -> str:
    labels = ", ".join(f"**{attempt.label}**" for attempt in left)
    count = "1 attempt" if len(left) == 1 else f"{len(left)} attempts"
    return f"{count} left to rate: {labels}."


def answer_text(attempt_no: int, verdict: Verdict, tries_left: int) -> str:
    """What a member sees after submitting a typed answer (the gold stays secret)."""
    if verdict.outcome is Grade.REJECTED:
        head = f"Try {attempt_no}: the checker could not grade that. {verdict.reason}".strip()
        return f"{head} {tries_text(tries_left)}"
    head = f"Try {attempt_no}: the checker read **{verdict.read}**. Reward **{verdict.reward}**"
    if verdict.reward:
        return f"{head} ✅ Correct. The checker only cared that the final answer matched."
    return f"{head} ❌ Not quite. {tries_text(tries_left)}"


def tries_text(tries_left: int) -> str:
    """How many more tries a member has at a free-answer problem."""
    if tries_left == 0:
        return "That was your last try."
    plural = "try" if tries_left == 1 else "tries"
    return f"Check your working and try again: {tries_left} {plural} left."


def _label_of(step: PredictionStep, choice_id: str | None) -> str | None:
    return next((c.label for c in step.choices if c.id == choice_id), None)
