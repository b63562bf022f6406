"""frozen recall figures: each round's figures kept as the channel's post of it showed them

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 14:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration: rounds posted so far have no frozen figures, and are counted."""
    with op.batch_alter_table("recall_rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("figures", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this migration, with ALTER TABLE ... DROP COLUMN on SQLite too (see 0006)."""
    with op.batch_alter_table("recall_rounds", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("figures")
