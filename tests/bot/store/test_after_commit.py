"""`Store.after_commit`: what must wait for a change to be readable elsewhere (the timer runner woken for
a new timer reads it on its own connection) runs once the outermost transaction commits."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.store import GameRecord, NewEntry, Store
from bot.store.timer_rows import TimerPlan
from bot.store.timers import game_timers

MakeGame = Callable[..., GameRecord]  # the make_game fixture of tests/bot/store/conftest.py


def test_a_callback_waits_for_the_locked_block_to_commit(store: Store, make_game: MakeGame) -> None:
    game = make_game(store)
    elsewhere = Store(store.engine.url.render_as_string(hide_password=False), migrate=False)
    seen: list[list[str]] = []
    try:
        with store.locked_game(game.id) as fresh:
            assert fresh is not None
            store.commit(fresh.id, fresh.version, state=fresh.state, entries=[NewEntry("note", None, 1, {})],
                         timers=[TimerPlan("reminder", fresh.created_at, {})])
            store.after_commit(lambda: seen.append([t.kind for t in game_timers(elsewhere, game.id)]))
            assert seen == []  # the commit joined the block's transaction: nothing readable yet
        assert seen == [["reminder"]]
    finally:
        elsewhere.close()


def test_a_callback_outside_a_block_runs_at_once_and_one_rolled_back_never(store: Store,
                                                                             make_game: MakeGame) -> None:
    game = make_game(store)
    called: list[str] = []
    store.after_commit(lambda: called.append("now"))
    assert called == ["now"]
    with pytest.raises(RuntimeError), store.locked_game(game.id):
        store.after_commit(lambda: called.append("rolled back"))
        raise RuntimeError("the block fails")
    with store.locked_game(game.id):
        pass
    assert called == ["now"]
