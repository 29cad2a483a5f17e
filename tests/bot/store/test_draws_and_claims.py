"""Exactly-once storage (PRODUCT.md, Storage model and Scheduling): a draw is stored once per
(source, date, index); an effect claimed by key happens once, whatever the number of processes, polls
or retries. Racing callers each have their own Store, as separate bot processes would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date

import pytest

from bot.store import AlreadyClaimed, Conflict, GameRecord, NewEntry, Store

MakeGame = Callable[..., GameRecord]
DRAW = {"date": "2024-03-02", "index": 1, "numbers": [3, 14, 15, 26, 42], "chance": 7, "source": "fdj"}


def test_a_draw_is_stored_once(store: Store) -> None:
    first, created = store.save_draw(source="fdj", date=date(2024, 3, 2), index=1, data=DRAW)
    assert (
        created
        and first.data == DRAW
        and (first.source, first.date, first.index) == ("fdj", date(2024, 3, 2), 1)
    )
    again, created_again = store.save_draw(
        source="fdj", date=date(2024, 3, 2), index=1, data={**DRAW, "numbers": [1, 2, 3, 4, 5]}
    )
    assert not created_again and again == first  # the first stored copy wins
    assert store.draws() == [first]


def test_draw_key_includes_source_and_index(store: Store) -> None:
    day = date(2024, 3, 2)
    store.save_draw(source="fdj", date=day, index=1, data=DRAW)
    assert store.save_draw(source="fdj", date=day, index=2, data=DRAW)[1]
    assert store.save_draw(source="manual", date=day, index=1, data=DRAW)[1]
    assert store.get_draw("fdj", day, 2) is not None
    assert store.get_draw("fdj", date(2024, 3, 4), 1) is None


def test_draws_are_listed_in_draw_order_within_bounds(store: Store) -> None:
    for day, index in [
        (date(2024, 3, 6), 1),
        (date(2024, 3, 2), 2),
        (date(2024, 3, 2), 1),
        (date(2024, 3, 9), 1),
    ]:
        store.save_draw(source="fdj", date=day, index=index, data=DRAW)
    store.save_draw(source="file", date=date(2024, 3, 4), index=1, data=DRAW)
    listed = store.draws(source="fdj", since=date(2024, 3, 2), until=date(2024, 3, 6))
    assert [(d.date.day, d.index) for d in listed] == [(2, 1), (2, 2), (6, 1)]
    assert len(store.draws()) == 5


def test_draw_data_must_be_json(store: Store) -> None:
    with pytest.raises(ValueError, match="draw data"):
        store.save_draw(source="fdj", date=date(2024, 3, 2), index=1, data={"when": date(2024, 3, 2)})
    assert store.draws() == []


def test_concurrent_pollers_store_a_draw_once(database_url: str) -> None:
    stores = [Store(database_url)] + [Store(database_url, migrate=False) for _ in range(2)]
    barrier = threading.Barrier(len(stores))
    created: list[bool] = []

    def poll(store: Store) -> None:
        barrier.wait()
        created.append(store.save_draw(source="fdj", date=date(2024, 3, 2), index=1, data=DRAW)[1])

    try:
        threads = [threading.Thread(target=poll, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(created) == [False, False, True]
        assert len(stores[0].draws()) == 1
    finally:
        for store in stores:
            store.close()


def test_claim_is_granted_once(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    assert not store.is_claimed("reminder:1:turn-3")
    assert store.claim("reminder:1:turn-3", game_id=game.id)
    assert store.is_claimed("reminder:1:turn-3")
    assert not store.claim("reminder:1:turn-3", game_id=game.id)
    assert store.claim("reminder:1:turn-4")


def test_racing_claims_have_one_winner(database_url: str) -> None:
    stores = [Store(database_url)] + [Store(database_url, migrate=False) for _ in range(3)]
    barrier = threading.Barrier(len(stores))
    won: list[bool] = []

    def take(store: Store) -> None:
        barrier.wait()
        won.append(store.claim("deadline:7:turn-2"))

    try:
        threads = [threading.Thread(target=take, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(won) == [False, False, False, True]
    finally:
        for store in stores:
            store.close()


def test_draw_applied_to_a_game_exactly_once(store: Store, make_game: MakeGame) -> None:
    """The claim travels with the commit: the second application is refused whole, even on a fresh version."""
    game = make_game(store)
    key = f"draw:{game.id}:2024-03-02:1"
    entry = NewEntry("draw", None, None, DRAW)
    applied = store.commit(game.id, 1, state={"ap": 3}, entries=[entry], claims=[key])
    before = (store.get_game(game.id), store.log(game.id))
    with pytest.raises(AlreadyClaimed) as caught:
        store.commit(game.id, applied.version, state={"ap": 6}, entries=[entry], claims=[key])
    assert caught.value.keys == (key,) and isinstance(caught.value, Conflict)
    assert (store.get_game(game.id), store.log(game.id)) == before


def test_a_commit_whose_claims_are_partly_taken_is_refused_whole(store: Store, make_game: MakeGame) -> None:
    """Two keys, one already held: neither the change nor the free key is taken (issue 22)."""
    game = make_game(store)
    taken, free = f"draw:{game.id}:2024-03-02:1", f"draw:{game.id}:2024-03-04:1"
    applied = store.commit(game.id, 1, state={"ap": 3}, entries=[NewEntry("draw", None, None, DRAW)], claims=[taken])
    before = (store.get_game(game.id), store.log(game.id))
    with pytest.raises(AlreadyClaimed) as caught:
        store.commit(game.id, applied.version, state={"ap": 9}, entries=[NewEntry("draw", None, None, DRAW)],
                     claims=[free, taken])
    assert caught.value.keys == (taken,)
    assert (store.get_game(game.id), store.log(game.id)) == before
    assert not store.is_claimed(free)


def test_claims_die_with_their_game(store: Store, make_game: MakeGame) -> None:
    from sqlalchemy import text

    game = make_game(store)
    store.commit(game.id, 1, state={}, entries=[], claims=["draw:x"])
    with store.engine.begin() as connection:
        connection.execute(text("DELETE FROM games WHERE id = :id"), {"id": game.id})
    assert not store.is_claimed("draw:x")
