"""Durable timers on both backends (PRODUCT.md, Scheduling): one per game and kind, moved with a new
generation, listed when due, finished only if not moved meanwhile, and a schema upgrade from 0004."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from bot.store import GameRecord, NewEntry, Store, current_revision, upgrade
from bot.store.db import head_revision
from bot.store.timer_rows import TimerPlan
from bot.store.timers import (
    TimerRecord,
    cancel_timer,
    due_timers,
    finish_timer,
    game_timers,
    get_timer,
    next_due,
    set_timer,
)

MakeGame = Callable[..., GameRecord]
NOON = dt.datetime(2024, 3, 6, 12, 0, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


def test_a_new_games_first_timers_are_written_with_it_or_not_at_all(store: Store, make_game: MakeGame) -> None:
    """Issue 22: a created or imported game's first deadline or clock comes in its creation's
    transaction, planned from the new record (its turn driver's `created_timers`)."""
    seen: list[GameRecord] = []

    def plans(record: GameRecord) -> list[TimerPlan]:
        seen.append(record)
        return [TimerPlan("deadline", NOON + HOUR, {"turn": 1})]

    game = make_game(store, timers=plans)
    assert seen == [game] and [(t.kind, t.due_at) for t in game_timers(store, game.id)] == [("deadline", NOON + HOUR)]

    def failing(record: GameRecord) -> list[TimerPlan]:
        raise RuntimeError("the driver failed")

    with pytest.raises(RuntimeError):
        make_game(store, name="Lyra", channel_id=1, timers=failing)
    assert [g.name for g in store.list_games()] == [game.name]  # no game without its timers


def test_set_timer_creates_then_moves_with_a_new_generation(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    first = set_timer(store, game.id, "deadline", NOON, {"turn": 1})
    assert (first.game_id, first.kind, first.due_at, first.payload, first.generation) == (
        game.id, "deadline", NOON, {"turn": 1}, 1)
    assert first.claim_key == f"timer:{game.id}:deadline:1"
    moved = set_timer(store, game.id, "deadline", NOON + HOUR, {"turn": 2})
    assert (moved.id, moved.due_at, moved.payload, moved.generation) == (first.id, NOON + HOUR, {"turn": 2}, 2)
    assert moved.claim_key == f"timer:{game.id}:deadline:2"
    again = set_timer(store, game.id, "deadline", NOON + HOUR)
    assert (again.generation, again.payload) == (3, {})
    assert game_timers(store, game.id) == [again]  # still one timer of that kind


def test_game_timers_soonest_first_and_per_game(store: Store, make_game: MakeGame) -> None:
    game, other = make_game(store), make_game(store)
    late = set_timer(store, game.id, "deadline", NOON + 2 * HOUR)
    early = set_timer(store, game.id, "reminder1", NOON)
    elsewhere = set_timer(store, other.id, "deadline", NOON)
    assert game_timers(store, game.id) == [early, late]
    assert game_timers(store, other.id) == [elsewhere]
    assert get_timer(store, game.id, "reminder1") == early
    assert get_timer(store, game.id, "clock") is None


def test_times_are_stored_in_utc_and_naive_ones_refused(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    paris = dt.datetime(2024, 3, 6, 13, 0, tzinfo=ZoneInfo("Europe/Paris"))
    timer = set_timer(store, game.id, "deadline", paris)
    assert timer.due_at == NOON and timer.due_at.tzinfo == dt.UTC
    with pytest.raises(ValueError, match="naive"):
        set_timer(store, game.id, "deadline", dt.datetime(2024, 3, 7, 12, 0))
    with pytest.raises(ValueError, match="naive"):
        due_timers(store, dt.datetime(2024, 3, 7, 12, 0))
    with pytest.raises(ValueError, match="naive"):
        next_due(store, after=dt.datetime(2024, 3, 7, 12, 0))
    assert game_timers(store, game.id) == [timer]  # the refused move changed nothing


def test_bad_kinds_payloads_and_games_are_refused(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    for kind in ("", "x" * 33, "deadline:2"):
        with pytest.raises(ValueError, match="kind"):
            set_timer(store, game.id, kind, NOON)
    with pytest.raises(ValueError, match="JSON"):
        set_timer(store, game.id, "deadline", NOON, {"when": NOON})
    with pytest.raises(LookupError, match="no game"):
        set_timer(store, 999_999, "deadline", NOON)
    assert game_timers(store, game.id) == []
    assert set_timer(store, game.id, "x" * 32, NOON).kind == "x" * 32


def test_cancel_timer(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    set_timer(store, game.id, "deadline", NOON)
    kept = set_timer(store, game.id, "clock", NOON)
    assert cancel_timer(store, game.id, "deadline") is True
    assert cancel_timer(store, game.id, "deadline") is False
    assert game_timers(store, game.id) == [kept]


def test_due_timers_oldest_first_and_next_due(store: Store, make_game: MakeGame) -> None:
    game, other = make_game(store), make_game(store)
    assert next_due(store) is None and due_timers(store, NOON) == []
    later = set_timer(store, other.id, "deadline", NOON - HOUR)
    oldest = set_timer(store, game.id, "reminder1", NOON - 2 * HOUR)
    exactly_now = set_timer(store, game.id, "deadline", NOON)
    future = set_timer(store, game.id, "clock", NOON + HOUR)
    assert due_timers(store, NOON) == [oldest, later, exactly_now]
    assert due_timers(store, NOON - 2 * HOUR) == [oldest]
    assert next_due(store) == NOON - 2 * HOUR
    assert next_due(store, after=NOON) == future.due_at
    assert next_due(store, after=NOON + HOUR) is None


def test_finish_timer_removes_it_unless_it_was_moved(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    fired = set_timer(store, game.id, "deadline", NOON)
    moved = set_timer(store, game.id, "deadline", NOON + HOUR)  # a game master moved the deadline
    finish_timer(store, fired)
    assert game_timers(store, game.id) == [moved]
    finish_timer(store, moved)
    assert game_timers(store, game.id) == []
    finish_timer(store, moved)  # twice (another process finished it too): nothing to do


def test_a_timer_set_again_after_it_fired_never_reuses_a_claimed_generation(
    store: Store, make_game: MakeGame
) -> None:
    """Otherwise the next turn's deadline would find its claim taken and never resolve."""
    game = make_game(store)
    other = make_game(store)
    fired = set_timer(store, game.id, "deadline", NOON)
    assert store.claim(fired.claim_key)
    finish_timer(store, fired)
    store.commit(game.id, game.version, state={}, entries=[], claims=[f"timer:{game.id}:deadline:7"])
    assert store.claim(f"timer:{game.id}:deadline_x:9")  # another kind, whose name starts the same
    following = set_timer(store, game.id, "deadline", NOON + HOUR)
    assert following.generation == 8 and not store.is_claimed(following.claim_key)
    assert set_timer(store, other.id, "deadline", NOON).generation == 1
    assert set_timer(store, game.id, "deadline_x", NOON).generation == 10


def test_timers_go_with_their_game(store: Store, make_game: MakeGame) -> None:
    game, kept = make_game(store), make_game(store)
    set_timer(store, game.id, "deadline", NOON)
    other = set_timer(store, kept.id, "deadline", NOON)
    with store.engine.begin() as connection:
        connection.execute(text("DELETE FROM games WHERE id = :id"), {"id": game.id})
    assert due_timers(store, NOON) == [other]


def test_records_are_frozen_copies(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    payload = {"actor": "A", "hours": [6, 1]}
    timer = set_timer(store, game.id, "clock", NOON, payload)
    payload["actor"] = "B"
    timer.payload["hours"].append(0)
    assert get_timer(store, game.id, "clock") == TimerRecord(timer.id, game.id, "clock", NOON,
                                                             {"actor": "A", "hours": [6, 1]}, 1)


def test_upgrade_from_0004_keeps_the_data_and_adds_timers(database_url: str) -> None:
    upgrade(database_url, "0004")
    old = Store(database_url, migrate=False)
    try:
        assert current_revision(old.engine) == "0004"
        game = old.create_game(kind="spaceblast", name="Nébuleuse", guild_id=1, channel_id=2, setup={"m": 1},
                               state={"turn": 3}, seed=5, created_by=None, status="running",
                               entries=[NewEntry("create", None, None, {})], options={"turn_hours": 24})
        assert old.claim(f"timer:{game.id}:deadline:4", game_id=game.id)  # whatever a 0004 bot claimed
    finally:
        old.close()
    store = Store(database_url)  # the new version starting: it migrates
    try:
        assert current_revision(store.engine) == head_revision()  # every later migration too
        assert store.get_game(game.id) == game
        assert [entry.kind for entry in store.log(game.id)] == ["create"]
        timer = set_timer(store, game.id, "deadline", NOON, {"turn": 3})
        assert (timer.generation, due_timers(store, NOON)) == (5, [timer])
    finally:
        store.close()
