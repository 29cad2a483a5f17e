"""A deadline resolves its turn exactly once: two bot processes firing the same deadlines at the
same moment on PostgreSQL, and a process killed in the middle of its pass, then restarted."""

from __future__ import annotations

import datetime as dt
import multiprocessing

import pytest

from bot.service import Context, GameService
from bot.store import Store
from bot.store.timers import game_timers
from tests.bot.every_game.driver_workers import fire_deadlines

SPAWN = multiprocessing.get_context("spawn")
NOW = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
GAMES = 6


def sealed_games(store: Store) -> list[int]:
    """`GAMES` sealed games of two players, each with one bid given, their deadlines 24 h after NOW."""
    service = GameService(store, clock=lambda: NOW)
    ids = []
    for channel in range(1, GAMES + 1):
        gm = Context(user_id=1, user_name="gm", guild_id=5, channel_id=channel, manage_server=True)
        assert service.handle(gm, "ts new", {"name": f"Bids {channel}"}).ok
        for user, name in ((2, "Ann"), (3, "Bob")):
            member = Context(user_id=user, user_name=name, guild_id=5, channel_id=channel)
            assert service.handle(member, "ts join", {"name": name}).ok
        assert service.handle(Context(user_id=2, user_name="Ann", guild_id=5, channel_id=channel), "ts order",
                              {"text": "add 2"}).ok
        ids.append(store.game_in_channel(5, channel).id)
    return ids


def resolutions(store: Store, game_id: int) -> int:
    return sum(1 for entry in store.log(game_id) if entry.kind == "resolve")


def deadline_of(store: Store, game_id: int) -> dt.datetime:
    return next(t.due_at for t in game_timers(store, game_id) if t.kind == "deadline")


AFTER = NOW + dt.timedelta(hours=24, seconds=1)


@pytest.mark.postgres
def test_two_processes_firing_the_same_deadlines_resolve_each_turn_once(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        games = sealed_games(store)
        barrier = SPAWN.Barrier(2)
        children = [SPAWN.Process(target=fire_deadlines, args=(postgres_url, AFTER, 0, barrier)) for _ in range(2)]
        for child in children:
            child.start()
        for child in children:
            child.join(120)
        assert [child.exitcode for child in children] == [0, 0]
        for game_id in games:
            assert resolutions(store, game_id) == 1
            assert deadline_of(store, game_id) == AFTER + dt.timedelta(hours=24)  # the next turn's, once
    finally:
        store.close()


def test_a_process_killed_mid_pass_leaves_the_rest_to_the_restart(database_url: str) -> None:
    store = Store(database_url)
    try:
        games = sealed_games(store)
        child = SPAWN.Process(target=fire_deadlines, args=(database_url, AFTER, 2))
        child.start()
        child.join(120)
        assert child.exitcode == -9  # SIGKILL after its second turn post
        assert sorted(resolutions(store, g) for g in games) == [0] * (GAMES - 2) + [1, 1]
        restart = SPAWN.Process(target=fire_deadlines, args=(database_url, AFTER))
        restart.start()
        restart.join(120)
        assert restart.exitcode == 0
        assert [resolutions(store, g) for g in games] == [1] * GAMES
    finally:
        store.close()
