"""SC-31 through the one pipeline: the draw that reaches a game's time limit and the end it causes
are one change (`Effects.within`, declared by the lottery driver): two log entries of one commit,
one version, the game finished, and a turn post that shows the verdict."""

from __future__ import annotations

from typing import Any

import pytest

from bot.lottery.apply import DrawApplier
from bot.service import GameService
from bot.store import Store
from bot.store.draws import save_draws
from tests.bot.draws.games import RecordingHooks, draw, make_running_game


def counted_commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The kinds of the entries of each `Store.commit` from now on, one list per commit."""
    commits: list[list[str]] = []
    original = store.commit

    def counting(game_id: int, expected_version: int, **kwargs: Any) -> Any:
        commits.append([entry.kind for entry in kwargs.get("entries", ())])
        return original(game_id, expected_version, **kwargs)

    monkeypatch.setattr(store, "commit", counting)
    return commits


def test_the_draw_reaching_the_limit_ends_the_game_in_its_own_commit(
        store: Store, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_running_game(store, 5, options={"limit_draws": 1})
    save_draws(store, [draw("2024-03-06")])
    commits = counted_commits(store, monkeypatch)
    hooks = RecordingHooks()
    [post] = DrawApplier(service, hooks=hooks).apply_all()
    assert commits == [["draw", "limit_reached"]]
    final = store.get_game(game.id)
    assert final is not None and final.version == game.version + 1
    assert final.status == post.game.status == "finished"
    draw_entry, end = store.log(game.id)[-2:]
    assert (draw_entry.kind, end.kind, end.actor, end.user_id) == ("draw", "limit_reached", None, None)
    assert end.payload == {"turn": 1, "draw": "2024-03-06"}
    assert end.seq == draw_entry.seq + 1
    # the post, as returned and as sent from the outbox, shows the verdict after the draw's lines
    [(posted_in, sent)] = hooks.posts
    for reply in (post.reply, sent):
        keys = [message.key for message in reply.messages]
        assert keys[:2] == ["turn.title", "turn.draw"] and "event.spacechess.game_over" in keys, keys
    assert posted_in == game.id


def test_a_draw_before_the_limit_is_a_change_of_one_entry(
        store: Store, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_running_game(store, 6, options={"limit_draws": 2})
    save_draws(store, [draw("2024-03-06")])
    commits = counted_commits(store, monkeypatch)
    [post] = DrawApplier(service).apply_all()
    assert commits == [["draw"]]
    assert post.game.status == "running" and post.game.version == game.version + 1
    assert "event.spacechess.game_over" not in [message.key for message in post.reply.messages]
