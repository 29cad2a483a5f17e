"""The refusal of an owed post the game's GMs were told of (issue 25 point 1): told once per cause,
not once per retry.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 17:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("refused", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("refused")
