"""A server's GM log channel (issue 25 point 1): where the GMs are told of what the bot cannot say in
a game's own channel — the channel deleted, the thread locked, the bot shut out of it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 10:25:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("log_channel_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("log_channel_id")
