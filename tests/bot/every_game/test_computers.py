"""Computer players through the service, on the duel test game: a member challenges the bot, the
computer takes the next seat and plays as soon as it is to move — after the answer of the command
that made it due, as a timer of that change (`computers_play` fires it as the bot's runner does) —
only legal moves, as the bot, its move posted in the channel."""

from __future__ import annotations

import pytest

from bot.service import Context, GameService
from bot.service.computers import COMPUTER
from bot.store.timers import game_timers
from tests.support.computers import computers_play, post_keys

GUILD, CHANNEL = 10, 90
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)


def keys(reply) -> list[str]:
    return [m.key for m in reply.messages]


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 11)
    assert service.handle(GM, "td new", {"name": "Duel"}).ok
    return service


def test_a_challenged_computer_answers_each_move_at_once(svc: GameService) -> None:
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    seated = svc.handle(ANN, "td challenge", {"level": "hard"})
    assert keys(seated)[0] == "game.computer_joined"
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.options["computers"] == {"Computer": "hard"} and game.status == "running"
    reply = svc.handle(ANN, "td order", {"text": "add 1"})
    assert keys(reply) == ["event.duel.added"]  # Ann's move, answered before the computer thinks
    assert COMPUTER in [t.kind for t in game_timers(svc.store, game.id)]  # its turn, planned with her move
    assert "event.duel.added" in post_keys(computers_play(svc))  # then its move, posted in the channel
    log = [(e.kind, e.actor, e.user_id) for e in svc.store.log(game.id)][-2:]
    assert log == [("order", "Ann", ANN.user_id), ("order", "Computer", None)]
    assert COMPUTER not in [t.kind for t in game_timers(svc.store, game.id)]  # Ann is to move: none planned
    while svc.store.game_in_channel(GUILD, CHANNEL).status == "running":
        assert svc.handle(ANN, "td order", {"text": "add 1"}).ok
        computers_play(svc)
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert svc.handle(ANN, "game info", {}).messages[-1].params == {"winner": "Computer"}
    computer_moves = [e.payload["text"] for e in svc.store.log(game.id) if e.actor == "Computer" and e.kind == "order"]
    assert computer_moves and set(computer_moves) == {"add 5"}  # hard finds the only winning line


def test_a_computer_seated_first_plays_its_opening_move_when_the_human_sits_down(svc: GameService) -> None:
    assert svc.handle(GM, "td challenge", {"level": "easy"}).ok
    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    assert "event.duel.added" in post_keys(computers_play(svc))  # the computer moved first, after the answer
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert [e.actor for e in svc.store.log(game.id) if e.kind == "order"] == ["Computer"]


def test_two_computers_play_each_other_to_the_end(svc: GameService) -> None:
    assert svc.handle(GM, "td challenge", {"level": "easy"}).ok
    assert svc.handle(GM, "td challenge", {"level": "hard"}).ok
    posts = computers_play(svc)
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished" and "event.duel.added" in post_keys(posts)
    assert set(game.options["computers"]) == {"Computer", "Computer 2"}


def test_a_level_is_one_of_the_games(svc: GameService) -> None:
    assert keys(svc.handle(ANN, "td challenge", {"level": "godlike"})) == ["error.option_bad_choice"]
    assert "tl challenge" not in __import__("bot.service.commands", fromlist=["table"]).table()


def test_a_failing_computer_is_logged_and_the_players_move_stands(svc: GameService, monkeypatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    import tests.support.duel_computer as computer

    assert svc.handle(ANN, "td join", {"name": "Ann"}).ok
    svc.handle(ANN, "td challenge", {"level": "easy"})

    def broken(*args, **kwargs):
        raise RuntimeError("the search broke")

    monkeypatch.setattr(computer, "choose", broken)
    reply = svc.handle(ANN, "td order", {"text": "add 2"})
    assert reply.ok and keys(reply) == ["event.duel.added"]  # Ann's move, accepted
    assert "event.duel.added" not in post_keys(computers_play(svc))  # the computer silent
    assert "a computer player failed" in caplog.text
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert [e.actor for e in svc.store.log(game.id)][-1] == "Ann"


def test_two_computers_playing_each_other_post_each_move_once(svc: GameService) -> None:
    """Issue 22: computers were a call nested in the pipeline, each level adding the posts of the
    levels below it again — two computers gave one reply of hundreds of copies. Now each of their
    moves is a turn of its own after the commit before it, and posts its words once."""
    assert svc.handle(GM, "td challenge", {"level": "easy"}).ok
    final = svc.handle(GM, "td challenge", {"level": "easy"})
    assert "event.duel.added" not in keys(final)  # the seating's answer waits for no move
    posted = post_keys(computers_play(svc))
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    moves = [e for e in svc.store.log(game.id) if e.kind == "order"]
    assert game.status == "finished" and len(moves) > 2
    assert posted.count("event.duel.added") == len(moves)
    assert sum(key.startswith("game.over") for key in posted) == 1
