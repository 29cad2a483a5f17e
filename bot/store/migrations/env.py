"""Alembic environment, run only through bot.store.db.upgrade, which hands over an open connection.

There is no alembic.ini and no offline (--sql) mode: the schema is always migrated by the bot itself
(`spacechess db upgrade`, or at start) inside the transaction upgrade() opened.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes.get("connection")
if context.is_offline_mode() or connection is None:
    raise RuntimeError(
        "run migrations with `spacechess db upgrade` (bot.store.db.upgrade), not the alembic CLI"
    )

context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite can only ALTER by copying the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
