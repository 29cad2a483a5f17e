"""Draws stored once, and claims for exactly-once effects.

Revision ID: 0002
Revises: 0001
Create Date: 2026-01-02 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "draws",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(), nullable=False),
        sa.Column("draw_date", sa.Date(), nullable=False),
        sa.Column("draw_index", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("source", "draw_date", "draw_index", name="uq_draws_source_date_index"),
    )
    op.create_table(
        "claims",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_claims_game_id"),
            nullable=True,
        ),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_claims_game_id", "claims", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_claims_game_id", table_name="claims")
    op.drop_table("claims")
    op.drop_table("draws")
