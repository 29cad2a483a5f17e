"""Schema management and backend set-up: Alembic migrations (empty database, idempotence, several
processes at once, agreement with the models), SQLite WAL + foreign keys, PostgreSQL URL handling."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError, StatementError
from sqlmodel import Session, SQLModel

from bot.store import (
    GameRecord,
    NewEntry,
    SeatRecord,
    Store,
    current_revision,
    head_revision,
    make_engine,
    normalise_url,
    upgrade,
)
from bot.store.models import GuildSettings

MakeGame = Callable[..., GameRecord]
TABLES = {"guild_settings", "games", "seats", "game_log", "draws", "claims", "status_messages", "timers", "outbox",
          "status_dirty", "command_syncs", "bot_keys", "member_settings", "web_links", "alembic_version"}


def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_builds_the_schema_on_an_empty_database(database_url: str) -> None:
    assert table_names(database_url) == set()
    upgrade(database_url)
    assert table_names(database_url) == TABLES
    engine = make_engine(database_url)
    try:
        assert current_revision(engine) == head_revision() == "0014"
    finally:
        engine.dispose()


def test_store_without_migrate_leaves_the_database_alone(database_url: str) -> None:
    Store(database_url, migrate=False).close()
    assert table_names(database_url) == set()


def test_upgrade_is_idempotent_and_keeps_data(database_url: str, make_game: MakeGame) -> None:
    store = Store(database_url)
    try:
        game = make_game(store)
        upgrade(database_url)
        upgrade(store.engine)
        assert store.get_game(game.id) == game
        assert current_revision(store.engine) == head_revision()
    finally:
        store.close()


def test_processes_starting_together_migrate_once(database_url: str) -> None:
    """Shards start at the same time: the migration lock makes all but one find the schema ready."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(3)

    def start() -> None:
        barrier.wait()
        try:
            upgrade(database_url)
        except Exception as exc:  # noqa: BLE001 — collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert table_names(database_url) == TABLES


def test_migrations_match_the_models(store: Store) -> None:
    """A model changed without a new migration would show up here as a difference."""
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_sqlite_every_connection_has_wal_and_foreign_keys(sqlite_store: Store) -> None:
    with sqlite_store.engine.connect() as first, sqlite_store.engine.connect() as second:
        for connection in (first, second):
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() > 0


def test_foreign_keys_refuse_orphans(store: Store) -> None:
    orphan = text("INSERT INTO seats (game_id, user_id, actor, mute_pings) VALUES (999, 1, 'A', false)")
    with pytest.raises(IntegrityError), store.engine.begin() as connection:
        connection.execute(orphan)
    assert store.seats(999) == []


def test_deleting_a_game_cascades_to_seats_and_log(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    kept = make_game(store)
    store.commit(
        game.id, 1, state={}, entries=[NewEntry("o", "A", 1, {})], seats_set=[SeatRecord(game.id, 1, "A")]
    )
    with store.engine.begin() as connection:
        connection.execute(text("DELETE FROM games WHERE id = :id"), {"id": game.id})
    assert (store.get_game(game.id), store.seats(game.id), store.log(game.id)) == (None, [], [])
    assert len(store.log(kept.id)) == 1


def test_naive_datetimes_are_refused(store: Store) -> None:
    row = GuildSettings(
        guild_id=1, language="fr", gm_role_id=None, ping_policy="all", updated_at=datetime(2024, 1, 1)
    )
    with pytest.raises(StatementError, match="naive datetime"), Session(store.engine) as session:
        session.add(row)
        session.commit()
    assert store.guild_settings(1).updated_at is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql://u:secret@db:5432/bot", "postgresql+psycopg://u:secret@db:5432/bot"),
        ("postgres://u@db/bot", "postgresql+psycopg://u@db/bot"),
        ("postgresql+psycopg://u@db/bot", "postgresql+psycopg://u@db/bot"),
        ("sqlite:///relative.sqlite", "sqlite:///relative.sqlite"),
    ],
)
def test_postgres_urls_use_psycopg3(url: str, expected: str) -> None:
    assert normalise_url(url) == expected


@pytest.mark.postgres
def test_postgres_store_from_a_plain_postgresql_url(postgres_url: str) -> None:
    assert postgres_url.startswith("postgresql://")
    store = Store(postgres_url)
    try:
        assert store.engine.dialect.driver == "psycopg"
        assert store.list_games() == []
    finally:
        store.close()


def test_0012_keeps_members_in_the_channel_and_lets_the_outbox_hold_direct_messages(database_url: str) -> None:
    """Reminders by DM: a member's settings written before 0012 keep their pings in the channel; the
    outbox then takes direct messages (kind ``dm``), and still refuses an unknown kind or choice."""
    upgrade(database_url, "0011")
    engine = make_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO member_settings (user_id, mute_pings, language, updated_at) "
                                    "VALUES (7, false, 'fr', '2026-12-01 00:00:00+00:00')"))
        upgrade(database_url)
        with engine.begin() as connection:
            assert connection.execute(text("SELECT reminders FROM member_settings")).scalar_one() == "channel"
            connection.execute(text("INSERT INTO outbox (kind, payload, created_at, attempts, next_attempt_at, "
                                    "message_ids) VALUES ('dm', '{}', '2026-12-01 00:00:00+00:00', 0, "
                                    "'2026-12-01 00:00:00+00:00', '[]')"))
        for bad in ("UPDATE member_settings SET reminders = 'pigeon'",
                    "INSERT INTO outbox (kind, payload, created_at, attempts, next_attempt_at, message_ids) "
                    "VALUES ('fax', '{}', '2026-12-01 00:00:00+00:00', 0, '2026-12-01 00:00:00+00:00', '[]')"):
            with pytest.raises(IntegrityError), engine.begin() as connection:
                connection.execute(text(bad))
    finally:
        engine.dispose()
