"""Reminders by direct message (issue 26 point 3): where a member's pings go, and the outbox's
direct messages.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("member_settings") as batch:
        batch.add_column(sa.Column("reminders", sa.String(8), nullable=False, server_default="channel"))
        batch.create_check_constraint("ck_member_settings_reminders", "reminders IN ('channel', 'dm')")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("ck_outbox_kind", type_="check")
        batch.create_check_constraint("ck_outbox_kind", "kind IN ('turn_post', 'gm_alert', 'dm')")


def downgrade() -> None:
    op.execute("DELETE FROM outbox WHERE kind = 'dm'")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("ck_outbox_kind", type_="check")
        batch.create_check_constraint("ck_outbox_kind", "kind IN ('turn_post', 'gm_alert')")
    with op.batch_alter_table("member_settings") as batch:
        batch.drop_constraint("ck_member_settings_reminders", type_="check")
        batch.drop_column("reminders")
