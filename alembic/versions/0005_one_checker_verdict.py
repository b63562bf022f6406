"""one checker verdict per member, attempt and step

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 08:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEYS = ["run_id", "step_id", "member_id", "attempt_id"]

DEDUPE = sa.text(
    "DELETE FROM checker_runs WHERE id NOT IN ("
    " SELECT kept FROM ("
    "  SELECT MIN(id) AS kept FROM checker_runs"
    "  GROUP BY run_id, step_id, member_id, attempt_id"
    " ) AS firsts"
    ")"
)
"""Keep each member's first checker run on an attempt; later repeats are the same verdict."""


def upgrade() -> None:
    """Apply this migration: drop repeated checker runs, then allow no more."""
    op.execute(DEDUPE)
    with op.batch_alter_table("checker_runs", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_checker_run_once", KEYS)


def downgrade() -> None:
    """Undo this migration."""
    with op.batch_alter_table("checker_runs", schema=None) as batch_op:
        batch_op.drop_constraint("uq_checker_run_once", type_="unique")
