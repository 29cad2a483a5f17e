"""Engines and migrations: the only place that knows SQLite and PostgreSQL apart.

SQLite gets WAL (readers never block the writer), enforced foreign keys and a busy timeout on every
connection, and SQLAlchemy's own recipe for real transactions: the driver's implicit BEGIN is turned
off and the "begin" event emits BEGIN itself, so that write transactions can ask for BEGIN IMMEDIATE.
That takes the write lock up front: two writers queue on the busy timeout instead of one failing with
"database is locked" when it upgrades a read snapshot that went stale.
"""

from __future__ import annotations

import sqlite3
import time
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url

#: Seconds a SQLite writer waits for the lock held by another writer before giving up.
SQLITE_BUSY_TIMEOUT = 30.0
#: Execution option read by the SQLite "begin" listener: "DEFERRED" (default) or "IMMEDIATE".
SQLITE_BEGIN = "sqlite_begin"
#: pg_advisory_xact_lock key serialising migrations of several processes starting at once.
_MIGRATION_LOCK = 0x5C_C0_DB


def normalise_url(url: str) -> str:
    """PostgreSQL URLs always use psycopg 3, the driver this project installs."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str, *, echo: bool = False) -> Engine:
    url = normalise_url(url)
    if make_url(url).get_backend_name() != "sqlite":
        return create_engine(url, echo=echo, pool_pre_ping=True)
    engine = create_engine(url, echo=echo, connect_args={"timeout": SQLITE_BUSY_TIMEOUT})
    event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin_sqlite_transaction)
    return engine


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # no implicit BEGIN: _begin_sqlite_transaction emits it
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT * 1000)}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable enough with WAL, far fewer fsyncs
    finally:
        cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    """WAL mode, waiting for other processes switching the same new file at the same moment: this
    pragma answers "database is locked" at once instead of using the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _begin_sqlite_transaction(connection: Connection) -> None:
    mode = connection.get_execution_options().get(SQLITE_BEGIN, "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def writer(engine: Engine) -> Engine:
    """The same engine, whose transactions take the SQLite write lock at BEGIN (no-op elsewhere)."""
    return engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})


def _alembic_config(connection: Connection | None = None) -> Config:
    """Built in code, not from an alembic.ini: the migrations ship inside the package."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("bot.store") / "migrations"))
    config.attributes["connection"] = connection
    return config


def upgrade(url_or_engine: str | Engine, revision: str = "head") -> None:
    """Bring the schema to `revision` in one transaction; safe when several processes start at once."""
    engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    try:
        with writer(engine).begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            command.upgrade(_alembic_config(connection), revision)
    finally:
        if engine is not url_or_engine:
            engine.dispose()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()
