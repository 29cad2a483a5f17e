"""Durable timers of games (deadlines, move clocks, reminders), fired once across processes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "timers",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_timers_game_id"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False, server_default="{}"),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "kind", name="uq_timers_game_kind"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("timers") as batch:
        batch.create_index("ix_timers_due_at", ["due_at"])


def downgrade() -> None:
    with op.batch_alter_table("timers") as batch:
        batch.drop_index("ix_timers_due_at")
    op.drop_table("timers")
