"""The outbox of channel posts, the durable "status is stale" mark, the pin state of a status
message, and the hashes of the application commands last synced.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 02:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_outbox_game_id"),
            nullable=True,
        ),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("message_ids", sa.JSON(), nullable=False, server_default="[]"),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(), nullable=True),
        sa.CheckConstraint("kind IN ('turn_post', 'gm_alert')", name="ck_outbox_kind"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("outbox") as batch:
        batch.create_index("ix_outbox_pending", ["sent_at", "channel_id", "id"])
    op.create_table(
        "status_dirty",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_status_dirty_game_id"),
            primary_key=True,
        ),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "command_syncs",
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("payload_hash", sa.String(64), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("status_messages") as batch:
        batch.add_column(sa.Column("pin", sa.String(16), nullable=False, server_default="pinned"))


def downgrade() -> None:
    with op.batch_alter_table("status_messages") as batch:
        batch.drop_column("pin")
    op.drop_table("command_syncs")
    op.drop_table("status_dirty")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_pending")
    op.drop_table("outbox")
