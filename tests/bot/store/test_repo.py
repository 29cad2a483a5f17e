"""Repository behaviour on both backends (PRODUCT.md, Storage model): games, versioned commits, log,
seats, guild settings. Every refused write is checked to have left the stored data unchanged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from datetime import UTC

import pytest

from bot.store import Conflict, GameRecord, GuildSettingsRecord, NewEntry, SeatRecord, StaleWrite, Store

MakeGame = Callable[..., GameRecord]  # the make_game fixture of tests/bot/store/conftest.py


def snapshot(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything stored about a game, to prove a refused write changed nothing."""
    return (store.get_game(game_id), store.log(game_id), store.seats(game_id))


def test_create_then_read_back(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    assert game.version == 1 and game.status == "setup"
    assert game.created_at.tzinfo is UTC and game.updated_at == game.created_at
    assert store.get_game(game.id) == game
    [entry] = store.log(game.id)
    assert (entry.seq, entry.kind, entry.user_id, entry.payload) == (1, "create", 42, {"map": "standard"})


def test_records_are_frozen(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    with pytest.raises(FrozenInstanceError):
        game.version = 5  # type: ignore[misc]


def test_missing_game_is_none(store: Store) -> None:
    assert store.get_game(999) is None


def test_big_discord_ids_and_seed_round_trip(store: Store, make_game: MakeGame) -> None:
    game = make_game(store, guild_id=2**63 - 1, channel_id=2**63 - 2, seed=-(2**63), created_by=2**62)
    stored = store.get_game(game.id)
    assert stored is not None
    assert (stored.guild_id, stored.channel_id, stored.seed, stored.created_by) == (
        2**63 - 1,
        2**63 - 2,
        -(2**63),
        2**62,
    )


def test_json_round_trip(store: Store, make_game: MakeGame) -> None:
    state = {
        "unicode": "Général Ørsted — ☄",
        "nested": {"list": [1, 2.5, True, None, {"deep": ["x"]}], "empty": {}},
        "big": 2**53 + 1,
        "negative": -3,
    }
    game = make_game(store, state=state, setup={"tuple_becomes_list": (1, 2)})
    stored = store.get_game(game.id)
    assert stored is not None
    assert stored.state == state
    assert stored.setup == {"tuple_becomes_list": [1, 2]} == game.setup


def test_returned_state_is_a_copy_of_what_was_stored(store: Store, make_game: MakeGame) -> None:
    state = {"ap": {"Alice": 1}}
    game = make_game(store, state=state)
    state["ap"]["Alice"] = 99
    assert game.state == {"ap": {"Alice": 1}}
    assert store.get_game(game.id).state == {"ap": {"Alice": 1}}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"x": {1, 2}}, "not JSON-serialisable"),
        ({"x": float("nan")}, "not JSON-serialisable"),
        ({"x": {1: "int key"}}, "non-string keys"),
    ],
)
def test_non_json_state_is_refused_before_writing(
    store: Store, make_game: MakeGame, state: dict[str, object], message: str
) -> None:
    game = make_game(store)
    before = snapshot(store, game.id)
    with pytest.raises(ValueError, match=message):
        store.commit(game.id, 1, state=state, entries=[NewEntry("order", "Alice", 1, {})])
    with pytest.raises(ValueError, match=message):
        make_game(store, state=state)
    assert snapshot(store, game.id) == before
    assert [g.id for g in store.list_games()] == [game.id]


def test_commit_updates_state_version_status_and_appends_log(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    entries = [
        NewEntry("order", "Alice", 7, {"text": "move C12"}),
        NewEntry("draw", None, None, {"n": [1, 2]}),
    ]
    after = store.commit(game.id, 1, state={"turn": 1}, entries=entries, status="running")
    assert (after.version, after.status, after.state) == (2, "running", {"turn": 1})
    assert after.updated_at >= game.updated_at and after.created_at == game.created_at
    assert store.get_game(game.id) == after
    log = store.log(game.id)
    assert [(e.seq, e.kind, e.actor) for e in log] == [
        (1, "create", None),
        (2, "order", "Alice"),
        (3, "draw", None),
    ]
    assert log[1].payload == {"text": "move C12"} and log[1].user_id == 7
    assert log[1].created_at == after.updated_at


def test_commit_without_status_keeps_it(store: Store, make_game: MakeGame) -> None:
    game = make_game(store, status="running")
    assert store.commit(game.id, 1, state={}, entries=[]).status == "running"


def test_stale_version_raises_and_writes_nothing(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    store.commit(game.id, 1, state={"turn": 1}, entries=[NewEntry("order", "Alice", 7, {})])
    before = snapshot(store, game.id)
    with pytest.raises(StaleWrite) as caught:
        store.commit(
            game.id,
            1,
            state={"turn": "lost"},
            entries=[NewEntry("order", "Bob", 8, {})],
            status="finished",
            seats_set=[SeatRecord(game.id, 8, "Bob")],
        )
    assert (caught.value.game_id, caught.value.expected_version, caught.value.actual_version) == (
        game.id,
        1,
        2,
    )
    assert not isinstance(caught.value, Conflict)
    assert snapshot(store, game.id) == before


def test_commit_on_a_missing_game_is_stale_with_no_version(store: Store) -> None:
    with pytest.raises(StaleWrite) as caught:
        store.commit(404, 1, state={}, entries=[])
    assert caught.value.actual_version is None


def test_bad_status_is_refused(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    before = snapshot(store, game.id)
    with pytest.raises(ValueError, match="unknown game status 'over'"):
        store.commit(game.id, 1, state={}, entries=[], status="over")
    with pytest.raises(ValueError, match="unknown game status"):
        make_game(store, status="done")
    assert snapshot(store, game.id) == before


def test_seats_set_move_swap_and_remove(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    alice, bob = SeatRecord(game.id, 1, "Alice"), SeatRecord(game.id, 2, "Bob", mute_pings=True)
    store.commit(game.id, 1, state={}, entries=[], seats_set=[alice, bob])
    assert store.seats(game.id) == [alice, bob]
    assert store.seat_of_user(game.id, 2) == bob
    assert store.seat_of_user(game.id, 3) is None
    # The two users swap characters in one commit: no unique key trips halfway.
    swapped = [SeatRecord(game.id, 2, "Alice"), SeatRecord(game.id, 1, "Bob")]
    store.commit(game.id, 2, state={}, entries=[], seats_set=swapped)
    assert store.seats(game.id) == swapped
    store.commit(game.id, 3, state={}, entries=[], seats_removed=["Alice"])
    assert store.seats(game.id) == [SeatRecord(game.id, 1, "Bob")]


def test_user_taking_a_second_seat_is_a_conflict_and_writes_nothing(
    store: Store, make_game: MakeGame
) -> None:
    game = make_game(store)
    store.commit(game.id, 1, state={}, entries=[], seats_set=[SeatRecord(game.id, 1, "Alice")])
    before = snapshot(store, game.id)
    with pytest.raises(Conflict) as caught:
        store.commit(
            game.id,
            2,
            state={"changed": True},
            entries=[NewEntry("join", "Bob", 1, {})],
            seats_set=[SeatRecord(game.id, 1, "Bob")],
        )
    assert isinstance(caught.value, StaleWrite) and caught.value.game_id == game.id
    assert "user_id" in caught.value.detail
    assert snapshot(store, game.id) == before


def test_malformed_seats_are_refused(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    with pytest.raises(ValueError, match="actor twice"):
        store.commit(
            game.id,
            1,
            state={},
            entries=[],
            seats_set=[SeatRecord(game.id, 1, "A"), SeatRecord(game.id, 2, "A")],
        )
    with pytest.raises(ValueError, match="another game"):
        store.commit(game.id, 1, state={}, entries=[], seats_set=[SeatRecord(game.id + 1, 1, "A")])
    assert store.get_game(game.id).version == 1  # type: ignore[union-attr]


def test_seats_and_logs_are_per_game(store: Store, make_game: MakeGame) -> None:
    first, second = make_game(store), make_game(store)
    store.commit(
        first.id,
        1,
        state={},
        entries=[NewEntry("order", "A", 1, {})],
        seats_set=[SeatRecord(first.id, 1, "A")],
    )
    store.commit(second.id, 1, state={}, entries=[], seats_set=[SeatRecord(second.id, 1, "A")])
    assert [e.seq for e in store.log(first.id)] == [1, 2]
    assert [e.seq for e in store.log(second.id)] == [1]
    assert store.seat_of_user(second.id, 1) == SeatRecord(second.id, 1, "A")


def test_log_paging(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    store.commit(game.id, 1, state={}, entries=[NewEntry("order", "A", 1, {"i": i}) for i in range(5)])
    assert [e.seq for e in store.log(game.id, after_seq=2)] == [3, 4, 5, 6]
    assert [e.seq for e in store.log(game.id, after_seq=2, limit=2)] == [3, 4]
    assert store.log(game.id, after_seq=6) == []


def test_game_in_channel_is_the_newest_even_finished(store: Store, make_game: MakeGame) -> None:
    """A finished game stays the channel's game (readable) until a newer one is created there."""
    make_game(store, guild_id=1, channel_id=10)
    newer = make_game(store, guild_id=1, channel_id=10)
    make_game(store, guild_id=1, channel_id=11)
    make_game(store, guild_id=2, channel_id=10)
    assert store.game_in_channel(1, 10) == newer
    finished = store.commit(newer.id, 1, state={}, entries=[], status="finished")
    assert store.game_in_channel(1, 10) == finished
    assert store.game_in_channel(1, 12) is None


def test_game_in_channel_without_guild_or_channel(store: Store, make_game: MakeGame) -> None:
    console = make_game(store, guild_id=None, channel_id=None)
    make_game(store, guild_id=5, channel_id=None)
    assert store.game_in_channel(None, None) == console
    assert store.game_in_channel(None, 3) is None


def test_list_games_filters(store: Store, make_game: MakeGame) -> None:
    a = make_game(store, guild_id=1, status="running")
    b = make_game(store, guild_id=1, status="finished")
    c = make_game(store, guild_id=2, status="running")
    assert store.list_games() == [a, b, c]
    assert store.list_games(guild_id=1) == [a, b]
    assert store.list_games(statuses={"running"}) == [a, c]
    assert store.list_games(guild_id=2, statuses=["finished"]) == []


def test_guild_settings_default_without_storing(store: Store) -> None:
    assert store.guild_settings(77) == GuildSettingsRecord(77, "fr", None, "players", None)


def test_guild_settings_partial_updates(store: Store) -> None:
    first = store.set_guild_settings(77, language="en")
    assert (first.language, first.gm_role_id, first.ping_policy) == ("en", None, "players")
    assert first.updated_at is not None and first.updated_at.tzinfo is UTC
    second = store.set_guild_settings(77, gm_role_id=2**60, ping_policy="none")
    assert (second.language, second.gm_role_id, second.ping_policy) == ("en", 2**60, "none")
    assert store.guild_settings(77) == second
    assert store.guild_settings(78).language == "fr"


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"language": "de"}, ValueError, "unknown language 'de'"),
        ({"ping_policy": "some"}, ValueError, "unknown ping policy 'some'"),
        ({"colour": "red"}, TypeError, "unknown guild settings: colour"),
    ],
)
def test_guild_settings_bad_input_changes_nothing(
    store: Store, fields: dict[str, str], error: type[Exception], message: str
) -> None:
    before = store.set_guild_settings(77, language="en")
    with pytest.raises(error, match=message):
        store.set_guild_settings(77, **fields)
    assert store.guild_settings(77) == before
