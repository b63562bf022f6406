"""post turns: who may move a run and post to its channel, until when

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 08:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("post_holder", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("post_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Undo this migration.

    The columns go with ALTER TABLE ... DROP COLUMN on SQLite too (`recreate="never"`):
    copying the runs table would drop the old one, and with foreign keys on, that deletes
    every vote and answer of every run.
    """
    with op.batch_alter_table("runs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("post_until")
        batch_op.drop_column("post_holder")
