"""`spacechess db backup FILE` and `spacechess db restore FILE`: a copy of the bot's database taken
while games are played, and the way back.

- SQLite: SQLite's online backup API, from a connection of its own: one consistent copy of the
  whole file even while the bot commits (the copy is one step under a read snapshot; WAL lets the
  writers go on). The backup is itself a SQLite database, usable as it is.
- PostgreSQL: a portable dump of the bot's tables as JSON lines — a header naming the schema's
  migration, then one line per row, table by table in foreign-key order — read in one REPEATABLE
  READ transaction, so every table comes from the same moment. `restore` loads it into a database
  at the same migration (an empty one is migrated first) and moves the id sequences past the rows.

A restore never overwrites games: it refuses a database that holds any row unless `force` is set,
and then empties it first (in one transaction with the load, so a failure leaves it as it was).
Refusals are `BackupError`s carrying a catalog key (``console.backup.*``) and its parameters.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Date, DateTime, Engine, MetaData, func, select, text
from sqlalchemy.engine import make_url

from bot.store.db import current_revision, make_engine, upgrade, writer

DUMP_FORMAT = "spacechess-backup"
DUMP_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
#: rows per INSERT while restoring a dump
_BATCH = 500


class BackupError(Exception):
    """A refusal worded by the catalog: `key` (``console.backup.*``) with `params`."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params


def _metadata() -> MetaData:
    from bot.store import models  # the tables the bot owns (Alembic's own table is not one)

    return models.SQLModel.metadata


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("console.backup.memory")
    return Path(parsed.database)


# --- backup ---------------------------------------------------------------------------------------


def backup(url: str, target: Path) -> int:
    """Copy the database at `url` into `target` (replaced only once the copy is complete); the number
    of games it holds."""
    source = _sqlite_path(url)
    if source is not None and not source.exists():
        raise BackupError("console.backup.no_database", path=str(source))
    partial = _partial_file(target)
    try:
        if source is not None:
            _sqlite_backup(source, partial)
        else:
            _dump(url, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return _games_in(target)


def _partial_file(target: Path) -> Path:
    descriptor, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent or ".")
    os.close(descriptor)
    return Path(name)


def _sqlite_backup(source: Path, target: Path) -> None:
    with closing(sqlite3.connect(source, timeout=30)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)  # pages=-1: in one step, one consistent snapshot


def _dump(url: str, target: Path) -> None:
    engine = make_engine(url)
    try:
        with engine.connect() as connection, target.open("w", encoding="utf-8") as out:
            connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
                tables = _metadata().sorted_tables
                header = {"format": DUMP_FORMAT, "version": DUMP_VERSION, "revision": revision,
                          "tables": [table.name for table in tables],
                          "taken_at": dt.datetime.now(dt.UTC).isoformat()}
                out.write(json.dumps(header) + "\n")
                for table in tables:
                    for row in connection.execute(select(table).order_by(*table.primary_key.columns)):
                        values = {key: _portable(value) for key, value in row._mapping.items()}
                        out.write(json.dumps({"t": table.name, "r": values}, ensure_ascii=False) + "\n")
    finally:
        engine.dispose()


def _portable(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date | dt.datetime) else value


def _games_in(path: Path) -> int:
    if path.read_bytes()[:16] == SQLITE_MAGIC:
        with closing(sqlite3.connect(path)) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    return sum(1 for row in _dump_rows(path) if row[0] == "games")


# --- restore --------------------------------------------------------------------------------------


def restore(url: str, source: Path, *, force: bool = False) -> int:
    """Load the backup `source` into the database at `url`; the number of games restored."""
    if not source.is_file():
        raise BackupError("console.backup.no_file", path=str(source))
    with source.open("rb") as handle:
        head = handle.read(16)
    if head == SQLITE_MAGIC:
        return _restore_sqlite_file(url, source, force)
    return _restore_dump(url, source, force)


def _restore_sqlite_file(url: str, source: Path, force: bool) -> int:
    target = _sqlite_path(url)
    if target is None:
        raise BackupError("console.backup.sqlite_into_postgres")
    if target.exists():
        _refuse_if_not_empty(url, force)
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target, timeout=30)) as dst:
        src.backup(dst)  # the whole file, replaced page by page under the target's write lock
    engine = make_engine(url)
    try:
        upgrade(engine)  # a backup of an older version is brought to this version's schema
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM games")).scalar() or 0)
    finally:
        engine.dispose()


def _dump_rows(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        next(lines, None)
        for number, line in enumerate(lines, start=2):
            try:
                item = json.loads(line)
                yield item["t"], item["r"]
            except (ValueError, KeyError, TypeError):
                raise BackupError("console.backup.bad_line", path=str(path), line=number) from None


def _header(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8") as lines:
            header = json.loads(next(lines, "") or "null")
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != DUMP_FORMAT:
        raise BackupError("console.backup.not_a_backup", path=str(path))
    if header.get("version") != DUMP_VERSION:
        raise BackupError("console.backup.dump_version", path=str(path), version=header.get("version"))
    return header


def _restore_dump(url: str, source: Path, force: bool) -> int:
    header = _header(source)
    engine = make_engine(url)
    try:
        upgrade(engine)
        here = current_revision(engine)
        if header.get("revision") != here:
            raise BackupError("console.backup.revision", made=header.get("revision"), here=here)
        tables = {table.name: table for table in _metadata().sorted_tables}
        unknown = [name for name in header.get("tables", []) if name not in tables]
        if unknown:
            raise BackupError("console.backup.unknown_table", table=unknown[0])
        _refuse_if_not_empty(engine, force)
        with writer(engine).begin() as connection:
            for table in reversed(_metadata().sorted_tables):  # --force: empty it, in this transaction
                connection.execute(table.delete())
            games = _load_rows(connection, tables, source)
            if connection.dialect.name == "postgresql":
                _move_sequences(connection)
        return games
    finally:
        engine.dispose()


def _load_rows(connection: Connection, tables: dict[str, Any], source: Path) -> int:
    batch: list[dict[str, Any]] = []
    current: str | None = None
    games = 0

    def flush() -> None:
        if batch and current is not None:
            connection.execute(tables[current].insert(), batch)
            batch.clear()

    for name, values in _dump_rows(source):
        if name not in tables:
            raise BackupError("console.backup.unknown_table", table=name)
        if name != current or len(batch) >= _BATCH:
            flush()
            current = name
        batch.append(_typed(tables[name], values))
        games += name == "games"
    flush()
    return games


def _typed(table: Any, values: dict[str, Any]) -> dict[str, Any]:
    """A dumped row with its dates and times read back (JSON has text for them)."""
    row = {}
    for key, value in values.items():
        column = table.columns.get(key)
        if column is not None and isinstance(value, str):
            kind = column.type.impl if hasattr(column.type, "impl") else column.type
            if isinstance(kind, DateTime):
                value = dt.datetime.fromisoformat(value)
            elif isinstance(kind, Date):
                value = dt.date.fromisoformat(value)
        row[key] = value
    return row


def _move_sequences(connection: Connection) -> None:
    """Ids go on after the restored rows (a new game must not take a restored game's id)."""
    for table in _metadata().sorted_tables:
        for column in table.primary_key.columns:
            if column.autoincrement is True or (column.autoincrement == "auto" and column.type.python_type is int):
                sequence = connection.execute(
                    text("SELECT pg_get_serial_sequence(:table, :column)"),
                    {"table": table.name, "column": column.name}).scalar()
                if sequence:
                    top = connection.execute(select(func.max(column))).scalar()
                    connection.execute(text("SELECT setval(:seq, :value, :called)"),
                                       {"seq": sequence, "value": top or 1, "called": top is not None})


def _refuse_if_not_empty(url_or_engine: str | Engine, force: bool) -> None:
    if force:
        return
    engine = make_engine(url_or_engine) if isinstance(url_or_engine, str) else url_or_engine
    try:
        with engine.connect() as connection:
            present = set(connection.dialect.get_table_names(connection))
            for table in _metadata().sorted_tables:
                if table.name in present and connection.execute(select(table).limit(1)).first() is not None:
                    raise BackupError("console.backup.not_empty", table=table.name)
    finally:
        if engine is not url_or_engine:
            engine.dispose()
