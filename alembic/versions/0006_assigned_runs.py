"""assigned runs: a run's mode and due time, each member's pass through it

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 14:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RUN_COLUMNS = ["reminded_at", "remind_at", "due_at", "mode"]


def upgrade() -> None:
    """Apply this migration: every run stored so far is a live one."""
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("mode", sa.String(length=16), server_default="live", nullable=False)
        )
        batch_op.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_runs_due_at", ["due_at"], unique=False)

    op.create_table(
        "member_passes",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("run_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "member_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("step_index", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("unreachable", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "member_id", name="uq_member_pass"),
    )
    with op.batch_alter_table("member_passes", schema=None) as batch_op:
        batch_op.create_index("ix_member_passes_run_id", ["run_id"], unique=False)


def downgrade() -> None:
    """Undo this migration.

    The run columns go with ALTER TABLE ... DROP COLUMN on SQLite too (`recreate="never"`):
    copying the runs table would drop the old one, and with foreign keys on, that deletes
    every vote and answer of every run.
    """
    with op.batch_alter_table("member_passes", schema=None) as batch_op:
        batch_op.drop_index("ix_member_passes_run_id")

    op.drop_table("member_passes")
    with op.batch_alter_table("runs", schema=None, recreate="never") as batch_op:
        batch_op.drop_index("ix_runs_due_at")
        for column in RUN_COLUMNS:
            batch_op.drop_column(column)
