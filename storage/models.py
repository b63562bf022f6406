"""ORM models: runs, members, votes, checker runs, free-answer tries, passes, reasons, recalls."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    column,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from storage.types import BigId, UTCDateTime


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of every table."""


class RunRow(Base):
    """One lesson run in one channel."""

    __tablename__ = "runs"
    __table_args__ = (
        Index(
            "uq_runs_one_active_per_channel",
            "platform",
            "workspace_id",
            "channel_id",
            unique=True,
            sqlite_where=text("state = 'active'"),
            postgresql_where=text("state = 'active'"),
        ),
        Index("ix_runs_deadline", "deadline"),
        Index("ix_runs_due_at", "due_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(16))
    workspace_id: Mapped[str] = mapped_column(String(64))
    channel_id: Mapped[str] = mapped_column(String(64))
    lesson_id: Mapped[str] = mapped_column(String(32))
    lesson_version: Mapped[int]
    host_id: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), default="active")
    step_index: Mapped[int] = mapped_column(default=0)
    phase: Mapped[str] = mapped_column(String(16), default="open")
    timer_seconds: Mapped[int | None]
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now, onupdate=_now)
    post_holder: Mapped[str | None] = mapped_column(String(64))
    """The process whose turn it is to move the run and post to its channel, if any."""
    post_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When that turn lapses unless its holder renews it (a holder that died frees it so)."""
    mode: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    """`live` (the channel with a host) or `assigned` (each member alone, by `due_at`)."""
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When an assigned run closes."""
    remind_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When an assigned run reminds the members who started and have not finished."""
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When that reminder was done: every member it was for was reminded or cannot be."""
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When the run finished, was stopped or closed: its delayed recall counts from then."""
    recall_plan: Mapped[str | None] = mapped_column(String(64))
    """The delayed recall's delays after the lesson, in seconds, comma-separated; none if
    empty or NULL (runs from before the delayed recall)."""
    language: Mapped[str] = mapped_column(String(16), default="en", server_default="en")
    """The language the run's lesson and channel posts speak (`en`, `es`)."""


class MemberRow(Base):
    """A person on a platform, known by their platform user id."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("platform", "workspace_id", "user_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(16))
    workspace_id: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    locale: Mapped[str | None] = mapped_column(String(16))
    """The language the member's platform was last seen set to, as it names it (`es-ES`; ""
    where it names none): what the bot sends them later speaks it. NULL until seen."""


class VoteRow(Base):
    """A member's one counted answer of one kind at one step (a choice, a thumbs rating)."""

    __tablename__ = "votes"
    __table_args__ = (
        UniqueConstraint("run_id", "step_id", "member_id", "kind", name="uq_votes_one_per_kind"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    step_id: Mapped[str] = mapped_column(String(32))
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    value: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now, onupdate=_now)


class GradedMixin:
    """Columns of anything the checker graded for a member at a step of a run."""

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    step_id: Mapped[str] = mapped_column(String(32))
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    outcome: Mapped[str] = mapped_column(String(16))
    read: Mapped[str] = mapped_column(Text, default="")
    reward: Mapped[int]
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class CheckerRunRow(GradedMixin, Base):
    """The checker's verdict on a sample attempt, as a member saw it: one row however often."""

    __tablename__ = "checker_runs"
    __table_args__ = (
        Index("ix_checker_runs_run_step", "run_id", "step_id"),
        UniqueConstraint(
            "run_id", "step_id", "member_id", "attempt_id", name="uq_checker_run_once"
        ),
    )

    attempt_id: Mapped[str] = mapped_column(String(32))


class FreeAnswerRow(GradedMixin, Base):
    """One try at a free-answer problem; every try is kept."""

    __tablename__ = "free_answers"
    __table_args__ = (
        UniqueConstraint("run_id", "step_id", "member_id", "attempt_no", name="uq_free_answer_try"),
    )

    attempt_no: Mapped[int]
    text: Mapped[str] = mapped_column(String(400))


class StepMessageRow(Base):
    """The platform message showing a step, so any process can edit it later."""

    __tablename__ = "step_messages"
    __table_args__ = (UniqueConstraint("run_id", "step_id", name="uq_step_message"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    step_id: Mapped[str] = mapped_column(String(32))
    message_ref: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class StepTallyRow(Base):
    """A step's aggregates frozen at its reveal, so the revealed counts never change."""

    __tablename__ = "step_tallies"
    __table_args__ = (UniqueConstraint("run_id", "step_id", name="uq_step_tally"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    step_id: Mapped[str] = mapped_column(String(32))
    participants: Mapped[int]
    payload: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class DeliveryRow(Base):
    """A platform delivery (an interaction or request id) already handled by some process."""

    __tablename__ = "deliveries"
    __table_args__ = (
        UniqueConstraint("platform", "delivery_id", name="uq_delivery"),
        Index("ix_deliveries_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(16))
    delivery_id: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class MemberPassRow(Base):
    """One member's own way through an assigned run: one row per member and run."""

    __tablename__ = "member_passes"
    __table_args__ = (
        UniqueConstraint("run_id", "member_id", name="uq_member_pass"),
        Index("ix_member_passes_run_id", "run_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    step_index: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now, onupdate=_now)
    unreachable: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The platform would not let the bot message the member privately."""
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When the run's reminder was sent to this member; set once."""
    reminder_holder: Mapped[str | None] = mapped_column(String(64))
    """The process that claimed this member's reminder to send it, until it is sent."""
    reminder_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    """When that claim lapses unless the reminder was sent (a holder that died frees it so)."""


class ReasonRow(Base):
    """A member's one-sentence reason for an answer at a peer round: one per member and vote."""

    __tablename__ = "reasons"
    __table_args__ = (
        UniqueConstraint("run_id", "step_id", "member_id", "vote", name="uq_reason_per_vote"),
        Index("ix_reasons_to_show", "run_id", "step_id", "vote", "choice_id", "shown"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    step_id: Mapped[str] = mapped_column(String(32))
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    vote: Mapped[int]
    """Which answer the reason goes with: 1, the first; 2, the one after discussion."""
    choice_id: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    shown: Mapped[int] = mapped_column(default=0, server_default="0")
    """How often the reason was shown to others: the least shown goes next."""
    hidden: Mapped[bool] = mapped_column(default=False, server_default=false())
    """A host hid it: never shown again."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now, onupdate=_now)


LIVE_CHECK = column("settled") == false()
"""A check still to send: only these are in the index the timer loop reads due checks by."""


class RecallCheckRow(Base):
    """One member's delayed recall check of a run, for one round of its plan: sent once."""

    __tablename__ = "recall_checks"
    __table_args__ = (
        UniqueConstraint("run_id", "member_id", "round", name="uq_recall_check"),
        Index("ix_recall_checks_live", "due_at", "id", sqlite_where=LIVE_CHECK,
              postgresql_where=LIVE_CHECK),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    round: Mapped[int]
    """Which delay of the run's plan: 1, the first."""
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closes_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    unreachable: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The platform would not let the bot message the member: counted, never retried."""
    settled: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Never to send (again): sent, its member unreachable or stopped, or its window passed."""
    holder: Mapped[str | None] = mapped_column(String(64))
    """The process that claimed the check to send it, until it is sent."""
    hold_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class RecallAnswerRow(Base):
    """A member's answer to one question of a recall check: the first one counts."""

    __tablename__ = "recall_answers"
    __table_args__ = (UniqueConstraint("check_id", "question_id", name="uq_recall_answer"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    check_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("recall_checks.id", ondelete="CASCADE")
    )
    question_id: Mapped[str] = mapped_column(String(32))
    choice_id: Mapped[str] = mapped_column(String(40))
    correct: Mapped[bool]
    answered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class RecallStopRow(Base):
    """A member who asked for no more recall checks from one channel."""

    __tablename__ = "recall_stops"
    __table_args__ = (UniqueConstraint("member_id", "channel_id", name="uq_recall_stop"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(BigId, ForeignKey("members.id", ondelete="CASCADE"))
    channel_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class RecallRoundRow(Base):
    """One round of a run's delayed recall: when its checks have all closed, posted once."""

    __tablename__ = "recall_rounds"
    __table_args__ = (
        UniqueConstraint("run_id", "round", name="uq_recall_round"),
        Index("ix_recall_rounds_post_at", "posted_at", "post_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigId, ForeignKey("runs.id", ondelete="CASCADE"))
    round: Mapped[int]
    delay_seconds: Mapped[int]
    post_at: Mapped[datetime] = mapped_column(UTCDateTime)
    """When every check of the round has closed: the channel's figures are posted then."""
    posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    figures: Mapped[dict[str, object] | None] = mapped_column(JSON)
    """The round's figures as its post showed them, frozen when it was posted (counts only)."""
    holder: Mapped[str | None] = mapped_column(String(64))
    hold_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
