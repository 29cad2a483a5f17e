"""The status message's "needs refresh" mark is written in the change's own transaction: a process that
dies after the commit, before the reply (and before the status board heard of the change), still
leaves the refresh owed — the restarted bot finds it (`StatusBoard.resume`)."""

from __future__ import annotations

import datetime as dt

from bot.service import Context, GameService
from bot.store.discord_state import clear_status_dirty, dirty_games, keep_status_message, mark_status_dirty
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID

GM = Context(user_id=1, user_name="gm", guild_id=GUILD_ID, channel_id=CHANNEL_ID, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD_ID, channel_id=CHANNEL_ID)


def test_a_commit_alone_marks_the_status_dirty(service: GameService) -> None:
    """No Discord at all here: no reply is sent, no status board is told — the commit is all there is."""
    store = service.store
    assert service.handle(GM, "sc new", {"name": "Orion"}).ok
    game = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert game is not None
    seen = dt.datetime.now(dt.UTC)  # the status board posts the game's status message as of `seen`
    keep_status_message(store, game.id, CHANNEL_ID, 555, seen)
    assert clear_status_dirty(store, game.id, seen)
    assert dirty_games(store) == {}

    refused = service.handle(ANN, "sc join", {"name": "Ann", "team": "9", "role": "general"})
    assert not refused.ok and dirty_games(store) == {}, "a refused order changes nothing, marks nothing"

    assert service.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}).ok
    joined = store.get_game(game.id)
    assert joined is not None and joined.version == game.version + 1
    assert set(dirty_games(store)) == {game.id}
    assert dirty_games(store)[game.id] >= joined.updated_at, "marked with the change, not before it"


def test_a_process_finds_only_its_own_servers_owed_refreshes(service: GameService) -> None:
    """The 30 s sweep of a process asks for the owed refreshes of the servers it holds: another
    shard's games are left to their process without being read here (they used to be read whole,
    game by game, at every sweep, for as long as their process had not refreshed them)."""
    store = service.store
    assert service.handle(GM, "sc new", {"name": "Orion"}).ok
    game = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    mark_status_dirty(store, game.id)
    keep_status_message(store, game.id, CHANNEL_ID, 555, dt.datetime(2020, 1, 1, tzinfo=dt.UTC))  # and stale
    assert set(dirty_games(store, {GUILD_ID})) == {game.id} == set(dirty_games(store))
    assert dirty_games(store, {GUILD_ID + 1}) == {}, "another process's server"
