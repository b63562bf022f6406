"""a run's language: the one its channel posts and its lesson speak

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-12 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration: every run stored so far speaks English."""
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("language", sa.String(length=16), server_default="en", nullable=False)
        )


def downgrade() -> None:
    """Undo this migration, with ALTER TABLE ... DROP COLUMN on SQLite too (see 0006)."""
    with op.batch_alter_table("runs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("language")
