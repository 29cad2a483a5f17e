"""An index of each game's log by kind: a history page and an undo preview read only the undo and
reveal entries of a game, whatever the length of its log.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 04:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_game_log_game_kind_seq", "game_log", ["game_id", "kind", "seq"])


def downgrade() -> None:
    op.drop_index("ix_game_log_game_kind_seq", table_name="game_log")
