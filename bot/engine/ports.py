"""What the engine needs from the outside world: storage and the answer checker.

Storage implements `RunStore`; the verifier implements `AnswerChecker`. Both are plain
protocols so the engine imports no database or platform code.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from bot.verifier.verdict import Verdict


class RunState(StrEnum):
    """Where a run is in its life."""

    ACTIVE = "active"
    FINISHED = "finished"
    STOPPED = "stopped"


class Phase(StrEnum):
    """Whether the current step takes answers or shows its results."""

    OPEN = "open"
    REVEALED = "revealed"


@dataclass(frozen=True)
class Place:
    """A channel on a platform: where a run lives."""

    platform: str
    workspace: str
    channel: str


@dataclass(frozen=True)
class Member:
    """Someone acting in a channel; `is_host` is decided by the adapter's platform rules."""

    user_id: str
    name: str = ""
    is_host: bool = False


@dataclass(frozen=True)
class Position:
    """A run's step and phase; moves are compare-and-set on this pair."""

    step_index: int
    phase: Phase


@dataclass(frozen=True)
class NewRun:
    """What it takes to open a run."""

    place: Place
    lesson_id: str
    lesson_version: int
    host: Member
    timer_seconds: int | None
    deadline: datetime | None


@dataclass(frozen=True)
class RunRecord:
    """A stored lesson run."""

    id: int
    place: Place
    lesson_id: str
    lesson_version: int
    host_id: str
    state: RunState
    position: Position
    timer_seconds: int | None
    deadline: datetime | None

    @property
    def step_index(self) -> int:
        """The current step's position in the lesson."""
        return self.position.step_index


@dataclass(frozen=True)
class VoteCount:
    """How many members gave `value` for `kind` at one step."""

    kind: str
    value: str
    count: int


@dataclass(frozen=True)
class FreeAnswerStats:
    """Aggregates of a free-answer step, computed in the database."""

    members: int
    attempts: int
    solved: int
    first_try_solved: int


@dataclass(frozen=True)
class VoteResult:
    """What became of a vote: stored (with the value it replaced) or refused, and why."""

    accepted: bool
    run: RunRecord | None = None
    previous: str | None = None
    blocked: bool = False


@dataclass(frozen=True)
class StepTally:
    """The aggregates of one step; frozen when it is revealed, so the reveal never changes."""

    participants: int
    votes: tuple[VoteCount, ...] = ()
    free: FreeAnswerStats | None = None


@dataclass(frozen=True)
class AnswerRecord:
    """One stored answer of any kind, for a host's export."""

    step_id: str
    kind: str
    user_id: str
    name: str
    value: str
    reward: int | None
    attempt_no: int | None
    at: datetime


@dataclass(frozen=True)
class SubmittedAnswer:
    """A free answer as stored: its try number and grade."""

    attempt_no: int
    verdict: Verdict


class RunStore(Protocol):
    """Persistence of runs, members and everything they answered."""

    async def create_run(self, new: NewRun) -> RunRecord:
        """Store a new active run; raise `ChannelBusy` if the channel has one."""
        ...

    async def get_run(self, run_id: int) -> RunRecord | None:
        """A run by id."""
        ...

    async def find_active_run(self, place: Place) -> RunRecord | None:
        """The active run of a channel, if any."""
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

    async def due_runs(self, now: datetime, platform: str | None = None) -> list[RunRecord]:
        """Active runs (of one platform, if given) whose deadline has passed."""
        ...

    async def find_latest_run(self, place: Place) -> RunRecord | None:
        """The most recently started run of a channel, whatever its state."""
        ...

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
        """Upsert one member's vote of one kind at one step, in the same transaction checking
        that the run is still active at `expected` and that the member has no vote of kind
        `blocked_by` there."""
        ...

    async def member_votes(self, run_id: int, step_id: str, user_id: str) -> dict[str, str]:
        """One member's votes at a step, by kind."""
        ...

    async def vote_counts(self, run_id: int, step_id: str) -> list[VoteCount]:
        """Votes at a step grouped by kind and value."""
        ...

    async def count_participants(self, run_id: int, step_id: str) -> int:
        """Distinct members who did anything at a step."""
        ...

    async def record_check(
        self, run_id: int, step_id: str, member: Member, attempt_id: str, verdict: Verdict
    ) -> None:
        """Store one run of the checker on a sample attempt."""
        ...

    async def record_free_answer(
        self, run_id: int, step_id: str, member: Member, text: str, verdict: Verdict
    ) -> SubmittedAnswer:
        """Store one try at a free-answer problem; returns its try number."""
        ...

    async def free_answer_stats(self, run_id: int, step_id: str) -> FreeAnswerStats:
        """Aggregates of a free-answer step."""
        ...

    async def count_run_members(self, run_id: int) -> int:
        """Distinct members who took part anywhere in a run."""
        ...

    async def save_tally(self, run_id: int, step_id: str, tally: StepTally) -> None:
        """Freeze a step's aggregates at its reveal."""
        ...

    async def find_tally(self, run_id: int, step_id: str) -> StepTally | None:
        """A step's frozen aggregates, if it was revealed."""
        ...

    async def forget_member(self, platform: str, workspace: str, user_id: str) -> int:
        """Delete everything a member answered in a workspace; returns how many rows went."""
        ...

    async def export_answers(self, run_id: int) -> list[AnswerRecord]:
        """Every answer stored for a run, oldest first."""
        ...

    async def claim_delivery(self, platform: str, delivery_id: str) -> bool:
        """Record a platform delivery (interaction) id; False if any process saw it before."""
        ...

    async def save_message(self, run_id: int, step_id: str, message_ref: str) -> None:
        """Remember the platform message that shows a step (for later edits)."""
        ...

    async def find_message(self, run_id: int, step_id: str) -> str | None:
        """The platform message that shows a step, if one was saved."""
        ...


class AnswerChecker(Protocol):
    """The program that grades final answers against a gold answer."""

    async def check_answer(self, answer: str, gold: str) -> Verdict:
        """Grade a member's typed answer."""
        ...

    async def check_attempt(self, attempt: str, gold: str) -> Verdict:
        """Extract the final answer from an attempt's reasoning and grade it."""
        ...
