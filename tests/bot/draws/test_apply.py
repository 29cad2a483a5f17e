"""Applying stored draws to running Space Chess games (SC-13..SC-16 through the engine; PRODUCT.md,
Storage model: each draw applied to each game exactly once, in draw order)."""

from __future__ import annotations

import datetime as dt

from tests.bot.draws.games import STARTED, RecordingHooks, draw, make_running_game

from bot.draw_apply import DrawApplier
from bot.service import GameService
from bot.store import Store
from bot.store.draws import applied_evenings, save_draws


def draw_entries(store: Store, game_id: int) -> list[dict]:
    return [entry.payload for entry in store.log(game_id) if entry.kind == "draw"]


def test_smoke(store: Store, service: GameService) -> None:
    game = make_running_game(store)
    save_draws(store, [draw("2024-03-06"), draw("2024-03-04")])
    hooks = RecordingHooks()
    posts = DrawApplier(service, hooks=hooks).apply_all()
    assert [p.draw.date for p in posts] == [dt.date(2024, 3, 4), dt.date(2024, 3, 6)]
    assert applied_evenings(store, game.id) == [(dt.date(2024, 3, 4), 1), (dt.date(2024, 3, 6), 1)]
    print(posts[0].reply)
    assert STARTED
