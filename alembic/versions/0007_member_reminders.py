"""each member's reminder: claimed by one process, then marked sent

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PASS_COLUMNS = ["reminder_until", "reminder_holder", "reminded_at"]


def upgrade() -> None:
    """Apply this migration: no member of a pass stored so far has been reminded one by one."""
    with op.batch_alter_table("member_passes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("reminder_holder", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("reminder_until", sa.DateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    """Undo this migration (ALTER TABLE ... DROP COLUMN on SQLite too, as 0006 does)."""
    with op.batch_alter_table("member_passes", schema=None, recreate="never") as batch_op:
        for column in PASS_COLUMNS:
            batch_op.drop_column(column)
