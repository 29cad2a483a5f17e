"""A member's own settings, across every game and server: pings off, the language of their private replies.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member_settings",
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("mute_pings", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("language IS NULL OR language IN ('fr', 'en')", name="ck_member_settings_language"),
    )


def downgrade() -> None:
    op.drop_table("member_settings")
