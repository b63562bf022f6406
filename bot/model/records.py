"""Plain records of runs, members and answers, as storage returns them and the engine reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot.verifier.verdict import Verdict


class RunState(StrEnum):
    """Where a run is in its life."""

    ACTIVE = "active"
    FINISHED = "finished"
    STOPPED = "stopped"


class RunMode(StrEnum):
    """How a run is taken: the channel together with a host, or each member alone by a due time."""

    LIVE = "live"
    ASSIGNED = "assigned"


class Phase(StrEnum):
    """Whether the current step takes answers or shows its results."""

    OPEN = "open"
    AGAIN = "again"
    """A peer round's second vote: the first closed, the answer not yet revealed."""
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
    locale: str | None = None
    """The language their platform is set to, as it names it (`es-ES`); None if not known.
    Stored with the member, for what is sent to them later."""


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
    mode: RunMode = RunMode.LIVE
    due_at: datetime | None = None
    """An assigned run closes at this time."""
    remind_at: datetime | None = None
    """An assigned run reminds members who started and did not finish at this time, once."""
    recall_plan: tuple[int, ...] | None = None
    """The delayed recall's delays after the lesson, in seconds; empty for none, None for the
    default."""
    language: str = "en"
    """The language the run's lesson and channel posts speak."""


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
    mode: RunMode = RunMode.LIVE
    due_at: datetime | None = None
    remind_at: datetime | None = None
    reminded_at: datetime | None = None
    """When the reminder was done: every member it was for reminded, or not reachable."""
    recall_plan: tuple[int, ...] = ()
    """The delayed recall's delays after the lesson, in seconds; empty for none."""
    ended_at: datetime | None = None
    """When the run finished, was stopped or closed."""
    language: str = "en"
    """The language the run's lesson and channel posts speak (`en`, `es`)."""

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
class VoteAt:
    """Where a vote is cast: the step, and the kind of vote (a choice, a second choice)."""

    step_id: str
    kind: str


@dataclass(frozen=True)
class ChoicePair:
    """How many members chose `first` at one step and `second` at another (None: no answer)."""

    first: str | None
    second: str | None
    count: int


@dataclass(frozen=True)
class ShownReason:
    """A member's reason for a choice at a peer round, as shown to others: anonymous."""

    id: int
    choice: str
    text: str


@dataclass(frozen=True)
class ListedReason:
    """A member's reason as a host reviews it: its number, what it argues for, whether hidden."""

    id: int
    step_id: str
    choice: str | None
    """None for a reason sent before its author answered: it goes with the answer they hold."""
    vote: int
    text: str
    shown: int
    hidden: bool


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
    pairs: tuple[ChoicePair, ...] = ()


RECALL_ANSWER_KIND = "recall"
"""An export row's kind for an answer to a delayed recall question."""
RECALL_SENT_KIND = "recall-sent"
"""An export row's kind for a delayed recall check sent to a member."""


@dataclass(frozen=True)
class AnswerRecord:
    """One stored answer of any kind, for a host's export.

    A delayed recall answer (kind `recall`) has the question as its step, the choice as its
    value, 1 or 0 (right or not) as its reward and the round as its try; a check sent (kind
    `recall-sent`) has no step nor value, its round as its try, and when it was sent.
    """

    step_id: str
    kind: str
    user_id: str
    name: str
    value: str
    reward: int | None
    attempt_no: int | None
    at: datetime
    reason: str = ""
    """A member's reason at a peer round, in a row of kind `reason` (empty elsewhere)."""


@dataclass(frozen=True)
class SubmittedAnswer:
    """A free answer as stored: its try number and grade."""

    attempt_no: int
    verdict: Verdict


@dataclass(frozen=True)
class ForgetReport:
    """What forgetting a member removed or anonymised, counted row by row."""

    votes: int = 0
    checker_runs: int = 0
    free_answers: int = 0
    member_records: int = 0
    deliveries: int = 0
    hosted_runs: int = 0
    passes: int = 0
    """The member's passes through assigned runs (the step each had reached)."""
    reasons: int = 0
    """The member's reasons for their answers at peer rounds."""
    recall_answers: int = 0
    """The member's answers to delayed recall questions."""
    recall_checks: int = 0
    """The member's delayed recall checks, planned or sent."""
    recall_stops: int = 0
    """The channels the member asked for no more recall checks from."""

    @property
    def answers(self) -> int:
        """Every stored answer removed, of every kind: recall checks' answers too."""
        return (self.votes + self.checker_runs + self.free_answers + self.reasons
                + self.recall_answers)

    @property
    def anything(self) -> bool:
        """Whether anything at all was stored about the member."""
        stored = (self.answers, self.member_records, self.deliveries, self.hosted_runs,
                  self.passes, self.recall_checks, self.recall_stops)
        return any(stored)


@dataclass(frozen=True)
class MemberPass:
    """One member's own way through an assigned run: the step they are at, and when."""

    run_id: int
    user_id: str
    step_index: int
    started_at: datetime
    finished_at: datetime | None = None
    unreachable: bool = False
    """The platform would not let the bot message them privately (closed DMs)."""
    name: str = ""
    """The member's display name, where a run's passes are listed; empty elsewhere."""
    locale: str | None = None
    """The language the member's platform was last seen set to, where a run's passes are
    listed; None if never seen."""

    @property
    def finished(self) -> bool:
        """Whether the member reached the end of the lesson."""
        return self.finished_at is not None


@dataclass(frozen=True)
class PassProgress:
    """How far members got in an assigned run: started, finished, and how many at each step."""

    started: int
    finished: int
    at_step: dict[int, int]
    """Members who have not finished, by the index of the step they are at."""
    unreachable: int = 0


@dataclass(frozen=True)
class RecallCheck:
    """A member's delayed recall check: its run, round and times, and what they answered.

    `answers` maps each question answered to the choice given and whether it was right.
    """

    id: int
    run_id: int
    user_id: str
    round: int
    due_at: datetime
    closes_at: datetime
    sent_at: datetime | None = None
    answers: dict[str, tuple[str, bool]] = field(default_factory=dict)
    locale: str | None = None
    """The language the member's platform was last seen set to; None if never seen."""


@dataclass(frozen=True)
class RecallRound:
    """One round of a run's delayed recall, whose checks have all closed: posted once."""

    run_id: int
    round: int
    delay_seconds: int


@dataclass(frozen=True)
class RecallProgress:
    """How a run's delayed recall stands: checks planned, sent, answered, not deliverable."""

    planned: int = 0
    sent: int = 0
    answered: int = 0
    unreachable: int = 0


@dataclass(frozen=True)
class LaterAnswer:
    """One member's answer to one delayed recall question (`member` is a key, not a name)."""

    member: int
    question_id: str
    correct: bool


@dataclass(frozen=True)
class QuestionFigures:
    """A delayed recall question's figures in a round, among members who answered it then and later.

    How many members, how many were right at the lesson, how many right later.
    """

    question_id: str
    members: int
    right_then: int
    right_later: int


@dataclass(frozen=True)
class RoundFigures:
    """A round's figures: members who answered its checks, and each question's figures.

    Frozen when the channel's post of the round is made, so every later view shows the post's.
    """

    answered: int
    questions: tuple[QuestionFigures, ...]
