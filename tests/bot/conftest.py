"""Shared fixtures for the bot's tests: a fresh Store on SQLite and, when a server is given, PostgreSQL.

PostgreSQL needs SPACECHESS_TEST_DATABASE_URL (`bash .ci/run` starts a throwaway server and sets it).
Each test session creates its own uniquely named database (so parallel runs never meet) and each
test gets an empty `public` schema in it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.store import Store

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


@pytest.fixture
def postgres_url(postgres_server_url: str) -> str:
    """The session's PostgreSQL database with an empty public schema."""
    import psycopg

    with psycopg.connect(_libpq(postgres_server_url), autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return postgres_server_url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'spacechess-test.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database, once per backend."""
    return request.getfixturevalue(f"{request.param}_url")


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A migrated, empty Store on each backend."""
    opened = Store(database_url)
    yield opened
    opened.close()


@pytest.fixture
def sqlite_store(sqlite_url: str) -> Iterator[Store]:
    """A migrated, empty Store on SQLite only (for tests that need no second backend)."""
    opened = Store(sqlite_url)
    yield opened
    opened.close()
