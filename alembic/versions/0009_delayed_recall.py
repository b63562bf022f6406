"""the delayed recall: each member's checks days after a lesson, their answers, the rounds

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
WHEN = sa.DateTime(timezone=True)


def _claim() -> list[sa.Column[object]]:
    """The columns of a claim to send or post: the holder, until when."""
    return [sa.Column("holder", sa.String(length=64), nullable=True),
            sa.Column("hold_until", WHEN, nullable=True)]


def upgrade() -> None:
    """Apply this migration: runs stored so far have no delayed recall and no end time."""
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ended_at", WHEN, nullable=True))
        batch_op.add_column(sa.Column("recall_plan", sa.String(length=64), nullable=True))
    _create_checks()
    _create_answers()
    op.create_table(
        "recall_stops",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("member_id", ID, nullable=False),
        sa.Column("channel_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("member_id", "channel_id", name="uq_recall_stop"),
    )
    op.create_table(
        "recall_rounds",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("run_id", ID, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("delay_seconds", sa.Integer(), nullable=False),
        sa.Column("post_at", WHEN, nullable=False),
        sa.Column("posted_at", WHEN, nullable=True),
        *_claim(),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "round", name="uq_recall_round"),
    )
    op.create_index("ix_recall_rounds_post_at", "recall_rounds", ["posted_at", "post_at"])


def _create_checks() -> None:
    op.create_table(
        "recall_checks",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("run_id", ID, nullable=False),
        sa.Column("member_id", ID, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("due_at", WHEN, nullable=False),
        sa.Column("closes_at", WHEN, nullable=False),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.Column("unreachable", sa.Boolean(), server_default=sa.false(), nullable=False),
        *_claim(),
        sa.Column("created_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "member_id", "round", name="uq_recall_check"),
    )
    op.create_index("ix_recall_checks_due", "recall_checks", ["sent_at", "due_at"])


def _create_answers() -> None:
    op.create_table(
        "recall_answers",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("check_id", ID, nullable=False),
        sa.Column("question_id", sa.String(length=32), nullable=False),
        sa.Column("choice_id", sa.String(length=40), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("answered_at", WHEN, nullable=False),
        sa.ForeignKeyConstraint(["check_id"], ["recall_checks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("check_id", "question_id", name="uq_recall_answer"),
    )


def downgrade() -> None:
    """Undo this migration: every recall table goes, and the runs' two columns."""
    op.drop_index("ix_recall_rounds_post_at", table_name="recall_rounds")
    op.drop_table("recall_rounds")
    op.drop_table("recall_stops")
    op.drop_table("recall_answers")
    op.drop_index("ix_recall_checks_due", table_name="recall_checks")
    op.drop_table("recall_checks")
    with op.batch_alter_table("runs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("recall_plan")
        batch_op.drop_column("ended_at")
