"""settled recall checks: only checks still to send are in the index due checks are read by

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.column("settled") == sa.false()
STOPPED = sa.text(
    "EXISTS (SELECT 1 FROM recall_stops JOIN runs ON runs.channel_id = recall_stops.channel_id "
    "WHERE recall_stops.member_id = recall_checks.member_id "
    "AND runs.id = recall_checks.run_id)"
)
"""The check's member asked for no more checks from its run's channel."""


def upgrade() -> None:
    """Apply this migration: checks sent, unreachable or stopped so far are settled.

    Checks whose window passed are settled by the timer loop's next planning.
    """
    with op.batch_alter_table("recall_checks", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("settled", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    checks = sa.table("recall_checks", sa.column("settled"), sa.column("sent_at"),
                      sa.column("unreachable"))
    op.execute(checks.update().where(sa.or_(
        checks.c.sent_at.is_not(None), checks.c.unreachable == sa.true(), STOPPED,
    )).values(settled=True))
    op.drop_index("ix_recall_checks_due", table_name="recall_checks")
    op.create_index("ix_recall_checks_live", "recall_checks", ["due_at", "id"],
                    sqlite_where=LIVE, postgresql_where=LIVE)


def downgrade() -> None:
    """Undo this migration, with ALTER TABLE ... DROP COLUMN on SQLite too (see 0006)."""
    op.drop_index("ix_recall_checks_live", table_name="recall_checks")
    op.create_index("ix_recall_checks_due", "recall_checks", ["sent_at", "due_at"])
    with op.batch_alter_table("recall_checks", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("settled")
