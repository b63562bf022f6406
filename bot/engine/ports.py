"""What the engine needs from the outside world: storage and the answer checker.

Storage implements `RunStore`, the sum of the narrow storage protocols that each part of the
engine depends on; the verifier implements `AnswerChecker`. All are plain protocols so the
engine imports no database or platform code.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.model.records import (
    AnswerRecord,
    ChoicePair,
    ForgetReport,
    FreeAnswerStats,
    LaterAnswer,
    ListedReason,
    Member,
    MemberPass,
    NewRun,
    PassProgress,
    Place,
    Position,
    RecallCheck,
    RecallProgress,
    RecallRound,
    RoundFigures,
    RunRecord,
    RunState,
    ShownReason,
    StepTally,
    SubmittedAnswer,
    VoteAt,
    VoteCount,
    VoteResult,
)
from bot.verifier.verdict import Verdict


class RunStorage(Protocol):
    """Runs: opening, finding and moving them."""

    async def create_run(self, new: NewRun) -> RunRecord:
        """Store a new active run; raise `ChannelBusy` if the channel has one."""
        ...

    async def get_run(self, run_id: int) -> RunRecord | None:
        """A run by id."""
        ...

    async def find_active_run(self, place: Place) -> RunRecord | None:
        """The active run of a channel, if any."""
        ...

    async def find_latest_run(self, place: Place) -> RunRecord | None:
        """The most recently started run of a channel, whatever its state."""
        ...

    async def latest_run_on(self, platform: str) -> RunRecord | None:
        """The most recently started run of a platform, in any channel, whatever its state."""
        ...

    async def move_run(
        self,
        run_id: int,
        expected: Position,
        new: Position,
        state: RunState,
        deadline: datetime | None,
        ended_at: datetime | None = None,
    ) -> RunRecord | None:
        """Move a run only if it is still at `expected`; None when another move won.

        A run that ends (any state but active) is stamped `ended_at`, by default now.
        """
        ...

    async def active_runs(self, platform: str) -> list[RunRecord]:
        """Every run of a platform that is still going."""
        ...

    async def due_runs(self, now: datetime, platform: str | None = None) -> list[RunRecord]:
        """Active runs (of one platform, if given) whose deadline has passed."""
        ...


class AnswerStorage(Protocol):
    """What members answer: votes, checker runs and typed answers."""

    async def record_vote(
        self,
        run_id: int,
        step_id: str,
        member: Member,
        kind: str,
        value: str,
        expected: Position | None = None,
        blocked_by: str | None = None,
    ) -> VoteResult:
        """Upsert one member's vote of one kind at one step.

        The same transaction checks that the run is still active at `expected` and that the
        member has no vote of kind `blocked_by` there.
        """
        ...

    async def member_votes(self, run_id: int, step_id: str, user_id: str) -> dict[str, str]:
        """One member's votes at a step, by kind."""
        ...

    async def record_check(
        self, run_id: int, step_id: str, member: Member, attempt_id: str, verdict: Verdict
    ) -> None:
        """Store one run of the checker on a sample attempt."""
        ...

    async def count_tries(self, run_id: int, step_id: str, user_id: str) -> int:
        """How many tries one member has made at a free-answer problem."""
        ...

    async def member_answered(self, run_id: int, step_id: str, user_id: str) -> bool:
        """Whether a member gave any answer at a step: a vote of any kind or a typed try."""
        ...

    async def record_free_answer(
        self,
        run_id: int,
        step_id: str,
        member: Member,
        text: str,
        verdict: Verdict,
        max_tries: int | None = None,
    ) -> SubmittedAnswer:
        """Store one try at a free-answer problem; returns its try number.

        A try that would be number `max_tries + 1` or later is not stored: `TriesUsedUp`.
        """
        ...


class TallyStorage(Protocol):
    """Counts of what was answered, live and frozen at a reveal."""

    async def vote_counts(self, run_id: int, step_id: str) -> list[VoteCount]:
        """Votes at a step grouped by kind and value."""
        ...

    async def count_participants(self, run_id: int, step_id: str) -> int:
        """Distinct members who did anything at a step."""
        ...

    async def step_counts(self, run_id: int, step_id: str) -> tuple[int, list[VoteCount]]:
        """Distinct members who did anything at a step, and its votes by kind and value."""
        ...

    async def free_answer_stats(self, run_id: int, step_id: str) -> FreeAnswerStats:
        """Aggregates of a free-answer step."""
        ...

    async def count_run_members(self, run_id: int) -> int:
        """Distinct members who took part anywhere in a run."""
        ...

    async def choice_pairs(self, run_id: int, first: VoteAt, second: VoteAt) -> list[ChoicePair]:
        """Members counted by their vote at `first` and at `second` (None: no vote there)."""
        ...

    async def save_tally(self, run_id: int, step_id: str, tally: StepTally) -> None:
        """Freeze a step's aggregates at its reveal."""
        ...

    async def find_tally(self, run_id: int, step_id: str) -> StepTally | None:
        """A step's frozen aggregates, if it was revealed."""
        ...


class MessageStorage(Protocol):
    """The platform's messages that show steps, and the deliveries already seen."""

    async def save_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember the platform message that shows a step (for later edits)."""
        ...

    async def find_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if one was saved."""
        ...

    async def claim_delivery(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery (interaction) id; False if any process saw it before."""
        ...

    async def claim_post_turn(
        self, run_id: int, holder: str, seconds: float, replacing: str | None = None
    ) -> bool:
        """Take (or renew) a run's post turn for `seconds`; False while another holder has it.

        `replacing` names a holder known to be gone, whose turn is taken over at once.
        """
        ...

    async def post_turn_holder(self, run_id: int) -> str | None:
        """Who holds a run's post turn now, if anyone."""
        ...

    async def release_post_turn(self, run_id: int, holder: str) -> None:
        """Give a run's post turn back, if `holder` still has it."""
        ...


class MemberDataStorage(Protocol):
    """What is stored about members: removing it, exporting it."""

    async def forget_member(
        self, platform: str, workspace: str, user_id: str, *, dry_run: bool = False
    ) -> ForgetReport:
        """Remove or blank every row naming a member in a workspace; count what changed.

        With `dry_run`, count what would change and change nothing.
        """
        ...

    async def export_answers(self, run_id: int) -> list[AnswerRecord]:
        """Every answer stored for a run, oldest first."""
        ...

    async def note_locale(self, platform: str, workspace: str, user_id: str, locale: str) -> None:
        """Store the language a member's platform is set to; nothing for a member not stored."""
        ...


class PassStorage(Protocol):
    """Members' own passes through assigned runs, and the runs that are due."""

    async def start_pass(self, run_id: int, member: Member, now: datetime) -> MemberPass:
        """The member's pass, begun at step 0 now unless it already exists (then as stored)."""
        ...

    async def member_pass(self, run_id: int, user_id: str) -> MemberPass | None:
        """A member's pass through a run, if they started it."""
        ...

    async def move_pass(
        self, run_id: int, user_id: str, expected: int, new: int, finished_at: datetime | None
    ) -> MemberPass | None:
        """Move a pass only if it is still at step `expected`; None when another move won."""
        ...

    async def pass_progress(self, run_id: int) -> PassProgress:
        """How many started and finished, and how many are at each step."""
        ...

    async def run_passes(self, run_id: int) -> list[MemberPass]:
        """Every member's pass through a run, in the order they started."""
        ...

    async def passes_to_remind(self, run_id: int) -> list[MemberPass]:
        """The passes the run's reminder is still owed to, oldest first.

        Those begun by the reminder time, not finished, of members who can be messaged and
        were not reminded yet.
        """
        ...

    async def mark_unreachable(self, run_id: int, user_id: str) -> None:
        """Note that a member could not be messaged privately."""
        ...

    async def claim_member_reminder(
        self, run_id: int, user_id: str, holder: str, seconds: float,
        replacing: Collection[str] = (),
    ) -> bool:
        """Claim a member's owed reminder for `holder` for `seconds`, unless another holds it.

        A claim that lapsed, or whose holder is in `replacing` (known to be gone), is taken.
        """
        ...

    async def mark_member_reminded(self, run_id: int, user_id: str, now: datetime) -> None:
        """Note that the member's reminder was sent."""
        ...

    async def release_member_reminder(self, run_id: int, user_id: str, holder: str) -> None:
        """Give back `holder`'s claim of a reminder not sent, for the next round."""
        ...

    async def reminder_holders(self, run_id: int) -> list[str]:
        """The holders of a run's claimed reminders not yet sent."""
        ...

    async def finish_reminder(self, run_id: int, now: datetime) -> bool:
        """Mark the run's reminder done once no member is owed it; whether it was marked now."""
        ...

    async def due_assignments(self, now: datetime) -> list[RunRecord]:
        """Active assigned runs whose due time has passed."""
        ...

    async def assignments_to_remind(self, now: datetime) -> list[RunRecord]:
        """Active assigned runs whose reminder time has passed and whose reminder is not done."""
        ...

    async def closed_assignments_without(self, step_id: str, since: datetime) -> list[RunRecord]:
        """Assigned runs closed since `since` that have no message saved under `step_id`."""
        ...

    async def open_assignments_without(self, step_id: str) -> list[RunRecord]:
        """Active assigned runs that have no message saved under `step_id`."""
        ...


class ReasonStorage(Protocol):
    """Members' one-sentence reasons for their answers at a peer round."""

    async def save_reason(
        self, run_id: int, step_id: str, member: Member, vote: int, choice: str | None, text: str
    ) -> None:
        """Store a member's reason with their first (`vote` 1) or second (2) answer.

        One row per member, step and vote: a second reason for the same vote replaces the first.
        A reason a host hid stays hidden, whatever its author sends. Without `choice` (sent
        before they answered), it goes with the answer its author holds.
        """
        ...

    async def reasons_to_show(
        self, run_id: int, held: VoteAt, choices: Sequence[str], not_by: str | None = None
    ) -> list[ShownReason]:
        """For each of `choices` in turn, the visible first-vote reason least shown so far.

        A reason argues for a choice only while its author's answer `held` (their first) is
        that choice; one sent before they answered, for the answer they hold. Reasons by the
        member `not_by` are passed over, and a choice with none is skipped. Each reason
        returned counts as shown once more, so every reason gets its turn; readers at once
        each take their own, as if one came after the other.
        """
        ...

    async def hide_reason(self, run_id: int, reason_id: int) -> bool:
        """Hide a reason of a run from now on; whether there was such a reason to hide."""
        ...

    async def member_reasons(self, run_id: int, step_id: str, user_id: str) -> dict[int, str]:
        """A member's own reasons at a step, by the answer (1 or 2) each was given with."""
        ...

    async def run_reasons(self, run_id: int) -> list[ListedReason]:
        """Every reason given in a run, oldest first, hidden ones too: for its hosts to review."""
        ...


class RecallStorage(Protocol):
    """Members' delayed recall checks: planned, sent once, answered, tallied by round."""

    async def runs_to_plan(self, now: datetime) -> list[RunRecord]:
        """Runs with a recall plan that owe checks to plan now."""
        ...

    async def plan_checks(self, run: RunRecord, window: timedelta) -> int:
        """Plan the checks (and, once the run ended, the rounds) a run owes; how many it owes."""
        ...

    async def due_checks(
        self, now: datetime, limit: int, platform: str | None = None
    ) -> list[RecallCheck]:
        """Checks due and not sent, still open, of members who did not stop them."""
        ...

    async def claim_checks(
        self, check_ids: Collection[int], holder: str, now: datetime, seconds: float,
        replacing: Collection[str] = (),
    ) -> set[int]:
        """Claim due checks for `holder` for `seconds`, in one write; the ids it got."""
        ...

    async def check_sent(self, check_id: int, now: datetime, reached: bool) -> None:
        """Note that a check was sent (`reached`) or that its member cannot be messaged."""
        ...

    async def release_check(self, check_id: int, holder: str) -> None:
        """Give back `holder`'s claim of a check not sent."""
        ...

    async def settle_checks(self, now: datetime) -> int:
        """Settle the due checks never to send (done, window passed, stopped); how many."""
        ...

    async def recall_holders(self) -> list[str]:
        """The holders of checks and rounds claimed and not yet done."""
        ...

    async def open_check(self, run_id: int, user_id: str, now: datetime) -> RecallCheck | None:
        """The member's latest sent check of a run that has not closed, with its answers."""
        ...

    async def save_recall_answer(
        self, check_id: int, question_id: str, choice_id: str, correct: bool, now: datetime,
        locale: str | None = None,
    ) -> bool:
        """Store an answer to one question of a check; False if one was stored already.

        With `locale`, the language the member's request came in is stored with them too.
        """
        ...

    async def stop_recalls(self, run_id: int, user_id: str, now: datetime) -> bool:
        """Note that a member wants no more checks from the run's channel."""
        ...

    async def rounds_to_post(
        self, now: datetime, platform: str | None = None
    ) -> list[RecallRound]:
        """Rounds whose checks have all closed and whose post is not done nor held."""
        ...

    async def claim_round(
        self, recall_round: RecallRound, holder: str, now: datetime, seconds: float,
        replacing: Collection[str] = (),
    ) -> bool:
        """Claim a round's post for `holder` for `seconds`, unless it is posted or held."""
        ...

    async def round_posted(
        self, recall_round: RecallRound, now: datetime, figures: RoundFigures
    ) -> None:
        """Note that a round's figures were posted, and freeze them as posted."""
        ...

    async def posted_figures(self, run_id: int) -> dict[int, RoundFigures]:
        """The figures of each posted round of a run, as its post showed them, by round."""
        ...

    async def release_round(self, recall_round: RecallRound, holder: str) -> None:
        """Give back `holder`'s claim of a round not posted."""
        ...

    async def later_answers(self, run_id: int, round_number: int) -> list[LaterAnswer]:
        """Every answer members gave to a round's checks of a run."""
        ...

    async def lesson_choices(
        self, run_id: int, step_ids: Sequence[str]
    ) -> dict[tuple[int, str], dict[str, str]]:
        """Each member's votes at some steps of a run, by (member key, step), then by kind."""
        ...

    async def recall_progress(self, run_id: int) -> RecallProgress:
        """How many of a run's checks are planned, sent, answered and unreachable."""
        ...

    async def round_closings(self, run_id: int) -> dict[int, datetime]:
        """When each stored round of a run has all its checks closed, by round number."""
        ...


class RunStore(
    RunStorage,
    AnswerStorage,
    TallyStorage,
    MessageStorage,
    MemberDataStorage,
    PassStorage,
    ReasonStorage,
    RecallStorage,
    Protocol,
):
    """Persistence of runs, members and everything they answered."""


class AnswerChecker(Protocol):
    """The program that grades final answers against a gold answer."""

    async def check_answer(
        self,
        answer: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Grade a member's typed answer (in the step's unit; `accept`: spellings of a word).

        The answer is read in `language` ("en", or "es", where 3,5 is 3.5).
        """
        ...

    async def check_attempt(
        self,
        attempt: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Extract the final answer from an attempt's reasoning and grade it (in `language`)."""
        ...
