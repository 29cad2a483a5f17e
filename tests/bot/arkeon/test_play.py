"""Arkeon through the service: two players or one against the computer, turns by `/ak place`,
`/ak swap` or the order text (suggested from the legal turns), the board after each move, the move
clock following the side to move, resignation after a confirmation."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.service import Context, GameService, Reply
from bot.store.timers import game_timers
from engine import registry
from tests.support.computers import computers_play

GUILD, CHANNEL = 10, 110
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 1)
    assert service.handle(GM, "ak new", {"name": "Duel", "clock_hours": 24}).ok
    return service


def mover(svc: GameService) -> Context:
    from engine import registry

    game = svc.store.game_in_channel(GUILD, CHANNEL)
    rules = registry.get("arkeon")
    side = rules.waiting_on(rules.from_json(game.state))[0]
    name = rules.view(rules.from_json(game.state))["players"][side]
    return {"Ann": ANN, "Bob": BOB}[name]


def test_two_players_alternate_with_the_clock_following_the_side_to_move(svc: GameService) -> None:
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ak join", {"name": "Bob"}).ok
    started = svc.handle(GM, "gm start", {})
    assert "event.arkeon.started" in keys(started) and started.files
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    first = mover(svc)
    clock = {t.kind: t for t in game_timers(svc.store, game.id)}["clock"]
    other = BOB if first is ANN else ANN
    assert keys(svc.handle(other, "ak order", {"text": "place basic C3 E"}))[0].startswith("error.not_your_turn")
    # an English reader's suggestions: the order words follow the reader (French: pose basique …)
    suggestions = svc.complete(replace(first, locale="en-US"), "ak order", "text", "place")
    assert suggestions and all(text.startswith("place") for text in suggestions)
    played = svc.handle(first, "ak order", {"text": suggestions[0]})
    assert played.ok and "event.arkeon.placed" in keys(played) and played.files
    while mover(svc) is first:  # the setup placements: the starter places its three pieces (AK-10)
        assert svc.handle(first, "ak order", {"text": svc.complete(first, "ak order", "text", "")[0]}).ok
    moved = {t.kind: t for t in game_timers(svc.store, game.id)}["clock"]
    assert moved.payload["actor"] != clock.payload["actor"]  # the other side's clock now runs


def test_the_computer_answers_every_move_to_the_end(svc: GameService) -> None:
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert keys(svc.handle(ANN, "ak challenge", {"level": "easy"}))[0] == "game.computer_joined"
    svc.handle(GM, "gm start", {})
    for _ in range(80):
        game = svc.store.game_in_channel(GUILD, CHANNEL)
        if game.status != "running":
            break
        text = svc.complete(ANN, "ak order", "text", "")[0]
        reply = svc.handle(ANN, "ak order", {"text": text})
        assert reply.ok, (text, reply.messages)
        computers_play(svc)
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished"
    computer = [e for e in svc.store.log(game.id) if e.actor and e.user_id is None and e.kind == "order"]
    assert computer  # the computer played, as the bot


def test_resigning_asks_first_then_the_other_side_wins(svc: GameService) -> None:
    svc.handle(ANN, "ak join", {"name": "Ann"})
    svc.handle(BOB, "ak join", {"name": "Bob"})
    svc.handle(GM, "gm start", {})
    ask = svc.handle(ANN, "ak resign", {})
    assert ask.buttons and svc.store.game_in_channel(GUILD, CHANNEL).status == "running"
    done = svc.handle(ANN, "ak resign", dict(ask.buttons[0].options))
    assert "event.arkeon.game_over" in keys(done)
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "finished"


def test_a_resignation_undone_sets_the_game_running_with_the_clock_of_the_side_to_move(svc: GameService) -> None:
    """Issue 23.2: a GM may take back the input that ended the game, resignations too; the move clock
    runs again for whoever is to move (the one pipeline: the driver is told)."""
    assert svc.handle(ANN, "ak join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "ak join", {"name": "Bob"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    resigning = mover(svc)
    ask = svc.handle(resigning, "ak resign", {})
    assert svc.handle(resigning, ask.buttons[0].command, dict(ask.buttons[0].options)).ok
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished" and game_timers(svc.store, game.id) == []
    undo = svc.handle(GM, "gm undo", {})
    assert keys(undo)[0] == "gm.undo.confirm_reopen"
    assert svc.handle(GM, "gm undo", dict(undo.buttons[0].options)).ok
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    clock = {t.kind: t for t in game_timers(svc.store, game.id)}["clock"]
    assert game.status == "running" and mover(svc) == resigning
    assert clock.payload["actor"] == registry.get("arkeon").waiting_on(registry.get("arkeon").from_json(game.state))[0]
