"""members' reasons at a peer round: one per member, step and answer

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Apply this migration: a table of reasons; second answers are votes of their own kind."""
    op.create_table(
        "reasons",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("run_id", ID, nullable=False),
        sa.Column("step_id", sa.String(length=32), nullable=False),
        sa.Column("member_id", ID, nullable=False),
        sa.Column("vote", sa.Integer(), nullable=False),
        sa.Column("choice_id", sa.String(length=40), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("shown", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "step_id", "member_id", "vote", name="uq_reason_per_vote"),
    )
    op.create_index(
        "ix_reasons_to_show", "reasons", ["run_id", "step_id", "vote", "choice_id", "shown"]
    )


def downgrade() -> None:
    """Undo this migration: the reasons go; second answers stay as votes."""
    op.drop_index("ix_reasons_to_show", table_name="reasons")
    op.drop_table("reasons")
