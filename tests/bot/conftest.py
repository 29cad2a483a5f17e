"""Shared fixtures for the bot's tests: a fresh Store on SQLite and, when a server is given, PostgreSQL.

PostgreSQL needs SPACECHESS_TEST_DATABASE_URL (`bash .ci/run` starts a throwaway server and sets it).
Each test session (each pytest-xdist worker is one) creates its own uniquely named database (so parallel
runs never meet) and each test gets an empty `public` schema in it.

Migrating an empty database costs far more than most tests that need one, so a `store` does not run
the migrations itself: each session migrates once, and every `store` starts from that result — a copy of
the migrated SQLite file, or on PostgreSQL the very statements the migrations sent, replayed into the
test's empty schema. The Store still checks the revision when it opens. The migrations themselves are
tested on truly empty databases (tests/bot/store/test_migrations.py uses `database_url`).
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url

from bot.store import Store, make_engine, upgrade
from bot.store.db import sqlite_file

TEST_DATABASE_ENV = "SPACECHESS_TEST_DATABASE_URL"
SKIP_REASON = (
    f"{TEST_DATABASE_ENV} is not set: no PostgreSQL server to test against (bash .ci/run starts one)"
)


def _libpq(url: str) -> str:
    """psycopg wants a plain libpq URL, without SQLAlchemy's "+driver" part."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """A database of our own on the test server, dropped at the end of the session."""
    base = os.environ.get(TEST_DATABASE_ENV)
    if not base:
        pytest.skip(SKIP_REASON)
    import psycopg  # the "postgres" extra: only needed when a server is configured

    name = f"spacechess_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(base), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_libpq(base), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _empty_public_schema(url: str) -> None:
    import psycopg

    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def postgres_url(postgres_server_url: str) -> str:
    """The session's PostgreSQL database with an empty public schema."""
    _empty_public_schema(postgres_server_url)
    return postgres_server_url


#: What migrating an empty PostgreSQL schema sends: (statement, parameters, executemany) in order.
Recorded = list[tuple[str, Any, bool]]


@pytest.fixture(scope="session")
def postgres_migration(postgres_server_url: str) -> Recorded:
    """The statements of one real migration of an empty schema (the ones that succeeded, without the
    transaction's BEGIN), recorded once per session; the schema is left empty again."""
    _empty_public_schema(postgres_server_url)
    engine = make_engine(postgres_server_url)
    sent: Recorded = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, many: bool) -> None:
        sent.append((statement, parameters, many))

    def failed(_context: Any) -> None:
        sent.pop()  # "is there an alembic_version table yet?": not on an empty schema

    event.listen(engine, "before_cursor_execute", record)
    event.listen(engine, "handle_error", failed)
    try:
        upgrade(engine)
    finally:
        engine.dispose()
        _empty_public_schema(postgres_server_url)
    return [entry for entry in sent if entry[0] not in ("BEGIN", "COMMIT")]


def _replay(url: str, migration: Recorded) -> None:
    """The recorded migration, in one transaction, into the (empty) schema of `url`."""
    import psycopg

    with psycopg.connect(_libpq(url), autocommit=True) as conn, conn.transaction():
        cursor = conn.cursor()
        for statement, parameters, many in migration:
            (cursor.executemany if many else cursor.execute)(statement, parameters)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per session, closed (its WAL folded into it)."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite"
    Store(f"sqlite:///{path}").close()
    assert not path.with_name(path.name + "-wal").exists(), "the template is one file"
    return path


def _migrated(url: str, request: pytest.FixtureRequest) -> str:
    """`url`, an empty test database, holding the migrated schema (see the module's docstring)."""
    if make_url(url).get_backend_name() == "sqlite":
        path = sqlite_file(url)
        assert path is not None and not path.exists(), "an empty SQLite database is a file not made yet"
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
    else:
        _replay(url, request.getfixturevalue("postgres_migration"))
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'spacechess-test.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database, once per backend."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def store(database_url: str, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A migrated, empty Store on each backend."""
    opened = Store(_migrated(database_url, request))
    yield opened
    opened.close()


@pytest.fixture
def sqlite_store(sqlite_url: str, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A migrated, empty Store on SQLite only (for tests that need no second backend)."""
    opened = Store(_migrated(sqlite_url, request))
    yield opened
    opened.close()


@pytest.fixture
def drawn() -> Iterator[list[str]]:
    """Every string drawn in an image while the test runs, the renders' cached drawings (backgrounds,
    keys) drawn again so their words are in it (`renders.common.recording_text`)."""
    from renders.common import recording_text

    with recording_text() as texts:
        yield texts
