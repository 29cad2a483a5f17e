"""The change that owes each outbox post (issue 22): a game's commit to a version, or a claim key, so
that "each post a change owes is written once" can be checked.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 11:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("owed_by", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("owed_by")
