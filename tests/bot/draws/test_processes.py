"""Exactly once across processes (PRODUCT.md, Storage model and Scheduling): a bot process killed between
games, and two processes applying the same draws at the same moment on one PostgreSQL database."""

from __future__ import annotations

import multiprocessing

import pytest

from bot.lottery.apply import DrawApplier
from bot.service import GameService
from bot.store import Store
from bot.store.draws import applied_evenings, save_draws
from tests.bot.draws.games import RecordingHooks, draw, make_running_game
from tests.bot.draws.workers import CRASH_EXIT, poll_once

SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, like a real second bot process


def draw_entries(store: Store, game_id: int) -> list[str]:
    return [entry.payload["draw"]["date"] for entry in store.log(game_id) if entry.kind == "draw"]


def test_a_crash_after_some_games_got_the_draw_is_finished_by_the_restart(database_url: str) -> None:
    store = Store(database_url)
    try:
        games = [make_running_game(store, channel, seats=False) for channel in range(1, 5)]
        save_draws(store, [draw("2024-03-06")])
        child = SPAWN.Process(target=poll_once, args=(database_url, 2))
        child.start()
        child.join(120)
        assert child.exitcode == CRASH_EXIT
        assert [len(draw_entries(store, g.id)) for g in games] == [1, 1, 0, 0]
        hooks = RecordingHooks()
        DrawApplier(GameService(store), hooks=hooks).apply_all()  # the restarted bot
        # the second game's draw was committed with its post, whose delivery the crash cut: the restart
        # delivers it (from the outbox), then the posts of the games it applies the draw to
        assert [game_id for game_id, _ in hooks.posts] == [games[1].id, games[2].id, games[3].id]
        for game in games:
            assert draw_entries(store, game.id) == ["2024-03-06"]
            assert len(applied_evenings(store, game.id)) == 1
    finally:
        store.close()


@pytest.mark.postgres
def test_two_processes_racing_on_postgresql_apply_each_draw_once(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        games = [make_running_game(store, channel, seats=False) for channel in range(1, 7)]
        save_draws(store, [draw("2024-03-06"), draw("2024-03-09")])
        barrier = SPAWN.Barrier(2)
        children = [SPAWN.Process(target=poll_once, args=(postgres_url, 0, barrier)) for _ in range(2)]
        for child in children:
            child.start()
        for child in children:
            child.join(120)
        assert [child.exitcode for child in children] == [0, 0]
        for game in games:
            assert draw_entries(store, game.id) == ["2024-03-06", "2024-03-09"]
            fresh = store.get_game(game.id)
            assert fresh is not None and fresh.version == game.version + 2
    finally:
        store.close()
