"""Engines and migrations: the only place that knows SQLite and PostgreSQL apart.

SQLite gets WAL (readers never block the writer), enforced foreign keys and a busy timeout on every
connection, and SQLAlchemy's own recipe for real transactions: the driver's implicit BEGIN is turned
off and the "begin" event emits BEGIN itself, so that write transactions can ask for BEGIN IMMEDIATE.
That takes the write lock up front: two writers queue on the busy timeout instead of one failing with
"database is locked" when it upgrades a read snapshot that went stale.

PostgreSQL gets the same treatment: the driver runs in autocommit and the "begin" event sends BEGIN,
so a read of one statement (the "NONE" mode, most of a command's reads) is one round trip instead of
BEGIN, the read and COMMIT — while every transaction still starts with an explicit BEGIN.

PostgreSQL connections are not pinged at every checkout (`pool_pre_ping` costs a round trip per
command): a connection is pinged only when it comes back from more than `IDLE_PING_SECONDS` idle,
the time a server restart or a firewall dropping idle sockets needs to bite. A connection that dies
while in use fails its command once; SQLAlchemy then sees the disconnect and invalidates the whole
pool, so the next command reconnects. Alembic is imported only when the schema is not at the head
already (read from the migration files and `alembic_version`), so a start costs no Alembic import.

A SQLite file this process cannot write (a read-only file or folder, another user's database) is still
read by the read commands through `read_only_url`: WAL readers write the -shm index next to the file,
so where they cannot, the file is opened immutable, provided its write-ahead log holds nothing the file
lacks (else `UnreadableDatabase` says what to fix, as `unwritable` does for a write).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError

if TYPE_CHECKING:
    from alembic.config import Config

#: Seconds a SQLite writer waits for the lock held by another writer before giving up.
SQLITE_BUSY_TIMEOUT = 30.0
#: Execution option read by the "begin" listener: "DEFERRED" (default), "IMMEDIATE" (SQLite takes the
#: write lock at BEGIN) or "NONE" (a single-statement read in the driver's autocommit: no BEGIN at all).
BEGIN_MODE = "begin_mode"
#: pg_advisory_xact_lock key serialising migrations of several processes starting at once.
_MIGRATION_LOCK = 0x5C_C0_DB
#: A pooled PostgreSQL connection idle longer than this is pinged before use (see the module docstring).
IDLE_PING_SECONDS = 10.0


def normalise_url(url: str) -> str:
    """PostgreSQL URLs always use psycopg 3, the driver this project installs."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str, *, echo: bool = False) -> Engine:
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_engine(url, echo=echo)
        _ping_when_idle(engine)
        event.listen(engine, "connect", _configure_postgresql_connection)
        event.listen(engine, "begin", _begin_transaction)
        return engine
    engine = create_engine(url, echo=echo, connect_args={"timeout": SQLITE_BUSY_TIMEOUT})
    # a read-only connection cannot switch the journal (nor needs to: a file the bot made is in WAL already)
    event.listen(engine, "connect", partial(_configure_sqlite_connection, wal=parsed.query.get("mode") != "ro"))
    event.listen(engine, "begin", _begin_transaction)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Ping a connection at checkout only if it sat in the pool longer than IDLE_PING_SECONDS; a dead
    one is replaced (DisconnectionError makes the pool reconnect) before the command uses it."""
    errors = engine.dialect.loaded_dbapi.Error

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
            dbapi_connection.rollback()
        except errors as exc:
            raise DisconnectionError(f"pooled connection lost while idle: {exc}") from exc

    event.listen(engine, "checkin", checked_in)
    event.listen(engine, "checkout", checkout)


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any, *, wal: bool) -> None:
    dbapi_connection.isolation_level = None  # no implicit BEGIN: _begin_transaction emits it
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT * 1000)}")
        if wal:
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


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL; None for another database, one in memory, or a `file:` URI already."""
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database)


def unwritable(path: Path) -> str | None:
    """What keeps this process from writing the SQLite database at `path`, and how to fix it; None
    when nothing does (as far as permissions tell: a read-only mount says so too) or the folder is missing."""
    if not path.parent.is_dir():
        return None
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file {path} is read-only for this user: make it writable, or run the command as its owner"
    if not os.access(path.parent, os.W_OK):
        return (f"the folder {path.parent} is not writable by this user, and SQLite writes {path.name}-wal and "
                f"{path.name}-shm next to the database: make the folder writable, or run the command as its owner")
    return None


class UnreadableDatabase(Exception):
    """A SQLite database this process can neither write nor read faithfully; the message says what to fix."""


def read_only_url(url: str) -> str:
    """The URL a read command opens `url` with: itself when the process may write the database, else the
    file opened read-only — through its -wal and -shm where they exist or the folder lets SQLite make
    them, immutable (the file alone) where neither, which is faithful only while the log is empty."""
    path = sqlite_file(url)
    if path is None or not path.exists() or unwritable(path) is None:
        return url
    wal, shm = (path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))
    options = "mode=ro"
    if not os.access(path.parent, os.W_OK) and not (wal.exists() and shm.exists()):
        if wal.exists() and wal.stat().st_size > 0:
            raise UnreadableDatabase(
                f"the folder {path.parent} is not writable by this user and {wal.name} holds changes not yet in "
                "the database file, which cannot be read without writing there: make the folder writable, or "
                "run the command as its owner")
        options += "&immutable=1"
    return f"sqlite:///file:{quote(str(path))}?{options}&uri=true"


def _configure_postgresql_connection(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.autocommit = True  # no implicit BEGIN: _begin_transaction emits it


def _begin_transaction(connection: Connection) -> None:
    """BEGIN (on SQLite DEFERRED or IMMEDIATE); "NONE" (a read of one statement) runs in the driver's
    autocommit mode, where the statement is its own transaction: one snapshot, and no BEGIN to send."""
    mode = connection.get_execution_options().get(BEGIN_MODE, "DEFERRED")
    if mode == "NONE":
        return
    connection.exec_driver_sql(f"BEGIN {mode}" if connection.dialect.name == "sqlite" else "BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine, whose transactions take the SQLite write lock at BEGIN (no-op elsewhere)."""
    return engine.execution_options(**{BEGIN_MODE: "IMMEDIATE"})


def _alembic_config(connection: Connection | None = None) -> Config:
    """Built in code, not from an alembic.ini: the migrations ship inside the package."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("bot.store") / "migrations"))
    config.attributes["connection"] = connection
    return config


def upgrade(url_or_engine: str | Engine, revision: str = "head") -> None:
    """Bring the schema to `revision` in one transaction; safe when several processes start at once."""
    engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    try:
        if revision == "head" and _script_head() is not None and _stored_revision(engine) == _script_head():
            return
        from alembic import command

        with writer(engine).begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            command.upgrade(_alembic_config(connection), revision)
    finally:
        if engine is not url_or_engine:
            engine.dispose()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


_REVISION = re.compile(r"^(down_revision|revision)\b[^=]*=\s*['\"]?([\w]+)['\"]?", re.MULTILINE)


@cache
def _script_head() -> str | None:
    """The head revision read from the migration files without Alembic: the one revision no other
    names as its parent; None when that is not clear-cut (then Alembic decides)."""
    revisions, parents = set(), set()
    for path in (resources.files("bot.store") / "migrations" / "versions").iterdir():
        if not path.name.endswith(".py") or path.name.startswith("__"):
            continue
        found = dict((key, value) for key, value in _REVISION.findall(path.read_text(encoding="utf-8")))
        if "revision" not in found:
            return None
        revisions.add(found["revision"])
        if found.get("down_revision", "None") != "None":
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def _stored_revision(engine: Engine) -> str | None:
    """The database's revision (None: not migrated yet, or not one single revision)."""
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except DBAPIError:  # no alembic_version table yet
        return None
    return rows[0][0] if len(rows) == 1 else None
