"""The secret links of the games' web pages (issue 29): one per game, found by the token's SHA-256.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_links",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_web_links_game_id", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
        sa.UniqueConstraint("token_hash", name="uq_web_links_token_hash"),
    )


def downgrade() -> None:
    op.drop_table("web_links")
