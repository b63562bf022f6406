"""What the engine needs from the outside world: storage and the answer checker.

Storage implements `RunStore`, the sum of the narrow storage protocols that each part of the
engine depends on; the verifier implements `AnswerChecker`. All are plain protocols so the
engine imports no database or platform code.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.model.records import (
    AnswerRecord,
    ChoicePair,
    ForgetReport,
    FreeAnswerStats,
    Member,
    NewRun,
    Place,
    Position,
    RunRecord,
    RunState,
    StepTally,
    SubmittedAnswer,
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

    async def move_run(
        self,
        run_id: int,
        expected: Position,
        new: Position,
        state: RunState,
        deadline: datetime | None,
    ) -> RunRecord | None:
        """Move a run only if it is still at `expected`; None when another move won."""
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

    async def free_answer_stats(self, run_id: int, step_id: str) -> FreeAnswerStats:
        """Aggregates of a free-answer step."""
        ...

    async def count_run_members(self, run_id: int) -> int:
        """Distinct members who took part anywhere in a run."""
        ...

    async def choice_pairs(
        self, run_id: int, first_step: str, second_step: str
    ) -> list[ChoicePair]:
        """Members counted by their choice at one step and at another (None: no choice there)."""
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


class RunStore(
    RunStorage, AnswerStorage, TallyStorage, MessageStorage, MemberDataStorage, Protocol
):
    """Persistence of runs, members and everything they answered."""


class AnswerChecker(Protocol):
    """The program that grades final answers against a gold answer."""

    async def check_answer(
        self, answer: str, gold: str, *, unit: str | None = None, accept: Sequence[str] = ()
    ) -> Verdict:
        """Grade a member's typed answer (in the step's unit; `accept`: spellings of a word)."""
        ...

    async def check_attempt(
        self, attempt: str, gold: str, *, unit: str | None = None, accept: Sequence[str] = ()
    ) -> Verdict:
        """Extract the final answer from an attempt's reasoning and grade it."""
        ...
