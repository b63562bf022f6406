"""a member's language: the locale their platform was last seen set to

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 13:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration: no member's language is known yet (NULL) until they are seen."""
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    """Undo this migration, with ALTER TABLE ... DROP COLUMN on SQLite too (see 0006)."""
    with op.batch_alter_table("members", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("locale")
