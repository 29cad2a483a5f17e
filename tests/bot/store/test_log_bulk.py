"""A whole log in bulk (issue 14: export and import of a long game): a new game's log goes in in one
statement whatever its length, and reads back exactly as given — payloads, authors and times — on
both backends, through the reads that skip SQLAlchemy's per-row processing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import event, text

from bot.store import GameRecord, NewEntry, Store

PAYLOADS: list[dict[str, Any]] = [
    {},
    {"text": "add 1"},
    {"name": "Zoë 🚀", "line": "a\u2028b\nc\"d\\e", "quote": "l'Étoile"},
    {"numbers": [0, -1, 2**63 - 1, -(2**63), 0.1, -2.5e-7, 1e300], "flags": [True, False, None]},
    {"nested": {"a": [{"b": {"c": [1, [2, [3]]]}}], "z": {}}, "empty": []},
    {"seqs": [3, 4]},
]
WHEN = datetime(2024, 3, 4, 12, 0, 0, tzinfo=UTC)  # microseconds 0: the text keeps them all the same


def _entries(count: int) -> list[NewEntry]:
    """Entries of every shape: with and without actor or member, times in UTC, in another zone, and
    none (stamped at the write)."""
    entries = []
    for index in range(count):
        moment = [WHEN + timedelta(microseconds=index), WHEN.astimezone(timezone(timedelta(hours=-5))), None][index % 3]
        entries.append(NewEntry(("order", "undo", "pause", "join")[index % 4], [None, "Ann", "Bob"][index % 3],
                                [None, 2, 1_234_567_890_123_456_789][index % 3], PAYLOADS[index % len(PAYLOADS)],
                                moment))
    return entries


def _log_inserts(store: Store) -> tuple[list[int], Callable[[], None]]:
    """Count the statements (each executemany counted once) that insert into the log."""
    counted: list[int] = []

    def count(conn: Any, cursor: Any, statement: str, params: Any, context: Any, executemany: bool) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO GAME_LOG"):
            counted.append(1)

    event.listen(store.engine, "before_cursor_execute", count)
    return counted, lambda: event.remove(store.engine, "before_cursor_execute", count)


def test_a_long_log_goes_in_in_one_statement_and_reads_back_as_given(
        store: Store, make_game: Callable[..., GameRecord]) -> None:
    entries = _entries(1200)  # more than one batch of the former 500-row INSERTs
    counted, stop = _log_inserts(store)
    try:
        before = datetime.now(UTC)
        game = make_game(store, entries=entries)
        after = datetime.now(UTC)
    finally:
        stop()
    assert len(counted) == (1 if store.dialect == "sqlite" else 0)  # PostgreSQL: one COPY, not an INSERT
    log = store.log(game.id)
    assert [(e.seq, e.kind, e.actor, e.user_id, e.payload) for e in log] == [
        (seq, e.kind, e.actor, e.user_id, e.payload) for seq, e in enumerate(entries, start=1)]
    for record, entry in zip(log, entries, strict=True):
        assert record.created_at.tzinfo is not None and record.created_at.utcoffset() == timedelta(0)
        if entry.created_at is None:
            assert before - timedelta(seconds=1) <= record.created_at <= after
        else:
            assert record.created_at == entry.created_at
    # the other reads of the log give the same records
    assert store.log_page(game.id, offset=5, limit=7) == log[::-1][5:12]
    assert store.log(game.id, after_seq=1190) == log[1190:]
    assert store.log(game.id, kinds={"undo"}) == [e for e in log if e.kind == "undo"]
    assert store.log_newest(game.id, kinds={"order"}, count=3) == [e for e in log if e.kind == "order"][-3:]


def test_a_bulk_log_keeps_the_time_format_of_single_entries_on_sqlite(
        sqlite_store: Store, make_game: Callable[..., GameRecord]) -> None:
    """SQLite compares times as text: the bulk write stores them as SQLAlchemy stores one entry."""
    game = make_game(sqlite_store, entries=_entries(6))
    sqlite_store.commit(game.id, game.version, state=game.state,
                        entries=[NewEntry("pause", None, 1, {}, WHEN.astimezone(timezone(timedelta(hours=3))))])
    with sqlite_store.engine.connect() as connection:
        stored = connection.execute(text("SELECT seq, created_at FROM game_log ORDER BY seq")).all()
    assert len(stored) == 7
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}", value) for _, value in stored), stored
    assert stored[0][1] == stored[6][1] == "2024-03-04 12:00:00.000000"


@pytest.mark.parametrize(
    ("payload", "fault"),
    [({"x": {1: "int key"}}, "non-string keys"), ({"x": float("nan")}, "not JSON-serialisable"),
     ({"x": object()}, "not JSON-serialisable")],
)
def test_a_payload_json_would_change_refuses_the_whole_new_game(
        store: Store, make_game: Callable[..., GameRecord], payload: dict[str, Any], fault: str) -> None:
    entries = [*_entries(40), NewEntry("order", "Ann", 2, payload)]
    with pytest.raises(ValueError, match=f"entry 'order' payload.*{fault}"):
        make_game(store, entries=entries)
    assert store.list_games() == []


def test_tuples_in_payloads_are_stored_as_the_lists_json_reads_back(
        store: Store, make_game: Callable[..., GameRecord]) -> None:
    game = make_game(store, entries=[*_entries(10), NewEntry("order", "Ann", 2, {"cells": (1, (2, 3))})])
    assert store.log(game.id)[-1].payload == {"cells": [1, [2, 3]]}
