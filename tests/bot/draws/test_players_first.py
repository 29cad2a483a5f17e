"""Players first (issue 28 point 2): a background pass over many games — a draw reaching every
running game — pauses between two games while a member's command is being served, and only then."""

from __future__ import annotations

import threading

import pytest

from bot.lottery.apply import DrawApplier
from bot.service import Context, GameService
from bot.service.players_first import PlayersFirst
from bot.store import Store
from bot.store.draws import save_draws
from tests.bot.draws.games import draw, make_running_game


def test_a_pass_gives_way_only_while_a_command_is_being_served() -> None:
    pauses: list[float] = []
    players = PlayersFirst(pause=0.01, sleep=pauses.append)
    players.give_way()
    with players.serving(), players.serving():
        players.give_way()
    players.give_way()
    assert pauses == [0.01]
    assert not players.busy


def test_a_command_that_fails_is_no_longer_served() -> None:
    players = PlayersFirst()
    with pytest.raises(RuntimeError), players.serving():
        raise RuntimeError("the command broke")
    assert not players.busy


def test_a_draw_pass_over_many_games_pauses_between_games_while_a_member_is_served(
        store: Store, service: GameService) -> None:
    games = [make_running_game(store, index) for index in range(1, 4)]
    save_draws(store, [draw("2024-03-06")])
    paused: list[float] = []
    service.players = PlayersFirst(pause=0.02, sleep=paused.append)
    with service.players.serving():  # a member's order, in another thread
        posts = DrawApplier(service).apply_all()
    assert sorted(post.game.id for post in posts) == sorted(game.id for game in games)
    assert paused == [0.02] * len(games)
    save_draws(store, [draw("2024-03-09")])
    assert len(DrawApplier(service).apply_all()) == len(games)
    assert paused == [0.02] * len(games), "nobody was being served: no pause"


def test_the_service_counts_a_command_while_it_runs(store: Store, service: GameService) -> None:
    make_running_game(store, 1)
    seen: list[bool] = []
    running, release = threading.Event(), threading.Event()
    language = service.language

    def slow_language(*args: object, **kwargs: object) -> str:
        running.set()
        release.wait(5)
        return language(*args, **kwargs)  # type: ignore[arg-type]

    service.language = slow_language  # type: ignore[method-assign]
    member = Context(user_id=7, user_name="ann", guild_id=1, channel_id=1)
    worker = threading.Thread(target=service.handle, args=(member, "game help", {}))
    worker.start()
    assert running.wait(5)
    seen.append(service.players.busy)
    release.set()
    worker.join(5)
    seen.append(service.players.busy)
    assert seen == [True, False]
