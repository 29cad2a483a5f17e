"""Initial schema: guild settings, games, seats, game log.

Revision ID: 0001
Revises:
Create Date: 2026-01-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("gm_role_id", sa.BigInteger(), nullable=True),
        sa.Column("ping_policy", sa.String(16), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("ping_policy IN ('players', 'none', 'all')", name="ck_guild_settings_ping_policy"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('setup', 'running', 'paused', 'finished')", name="ck_games_status"
        ),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_games_guild_channel", "games", ["guild_id", "channel_id"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_seats_game_id"),
            nullable=False,
        ),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("mute_pings", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("game_id", "actor", name="uq_seats_game_actor"),
        sa.UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
    )
    op.create_table(
        "game_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_game_log_game_id"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("actor", sa.String(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_log_game_seq"),
    )


def downgrade() -> None:
    op.drop_table("game_log")
    op.drop_table("seats")
    op.drop_index("ix_games_guild_channel", table_name="games")
    op.drop_table("games")
    op.drop_table("guild_settings")
