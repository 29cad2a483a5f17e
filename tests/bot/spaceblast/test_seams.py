"""SpaceBlast at the seams of issue 22: changes that used to take a path of their own (a time jump's
wait, a GM undo, a kick, a GM taking a seat, computers playing turns back to back) go through the
one pipeline now, and keep the turn's secrets and its deadline right."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import translate
from bot.service import Attachment, Context, GameService, Reply
from bot.store.timers import game_timers
from tests.support.computers import computers_play, post_keys

GUILD, CHANNEL = 10, 130
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=11, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=12, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
EVE = Context(user_id=99, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)  # not in the game

JUMP_SETUP = (b'[setup]\nradius = 5\nvariants = ["powers"]\n'
              b'[[setup.ships]]\nid = "Ann"\nat = "E5"\nfacing = "E"\npowers = ["timejump"]\n'
              b'[[setup.ships]]\nid = "Bob"\nat = "E8"\nfacing = "W"\n')


def keys(reply: Reply) -> list[str]:
    return [m.key for m in reply.messages]


def words(reply: Reply) -> str:
    return "\n".join(translate(m.key, "en", m.params) for m in (*reply.messages, *reply.aside))


def everything_eve_reads(svc: GameService) -> str:
    return words(svc.handle(EVE, "game history", {}))


@pytest.fixture
def jump(store) -> GameService:
    """Ann holds a time jump and plays it; Bob's secret order is 'brake missile'; both are ready, so
    the turn waits on Ann's answer."""
    service = GameService(store, seed_source=lambda: 5)
    assert service.handle(GM, "sb new", {"name": "Jump", "setup": Attachment("jump.toml", JUMP_SETUP)}).ok
    for member, ship in ((ANN, "Ann"), (BOB, "Bob")):
        assert service.handle(GM, "gm replace", {"character": ship, "user": member.user_id}).ok
    service.handle(ANN, "sb order", {"text": "power timejump"})
    service.handle(BOB, "sb order", {"text": "brake missile"})
    service.handle(ANN, "sb ready", {})
    assert "event.spaceblast.time_jump_wait" in keys(service.handle(BOB, "sb ready", {}))
    return service


def arena(store, seed: int = 2024) -> GameService:
    """Ann and Bob in a running radius-5 arena."""
    service = GameService(store, seed_source=lambda: seed)
    assert service.handle(GM, "sb new", {"name": "Nebula", "radius": 5}).ok
    assert service.handle(ANN, "sb join", {"name": "Ann"}).ok
    assert service.handle(BOB, "sb join", {"name": "Bob"}).ok
    assert service.handle(GM, "gm start", {}).ok
    return service


def test_a_time_jump_wait_reveals_nothing_to_anyone_but_its_holder(jump: GameService) -> None:
    game = jump.store.game_in_channel(GUILD, CHANNEL)
    assert [e.kind for e in jump.store.log(game.id)][-1] == "jump"  # not the reveal
    assert "brake missile" not in everything_eve_reads(jump)
    assert "brake missile" not in words(jump.handle(GM, "gm undo", {}))  # the GM's listing
    export = jump.handle(GM, "gm export", {})
    assert "brake missile" not in export.files[0].data.decode() and "gm.exported_sealed" in keys(export)


def test_after_the_jump_is_undone_the_orders_stay_sealed(jump: GameService) -> None:
    ask = jump.handle(GM, "gm undo", {})
    assert jump.handle(GM, "gm undo", dict(ask.buttons[0].options)).ok
    assert "brake missile" not in everything_eve_reads(jump)
    assert "brake missile" not in words(jump.handle(ANN, "game history", {}))


def test_an_undone_reveal_reveals_nothing(store) -> None:
    service = arena(store)
    service.handle(ANN, "sb order", {"text": "left missile"})
    service.handle(ANN, "sb ready", {})
    assert "event.spaceblast.revealed" in keys(service.handle(BOB, "sb ready", {}))
    ask = service.handle(GM, "gm undo", {"n": 1})
    assert service.handle(GM, "gm undo", dict(ask.buttons[0].options)).ok  # the resolution taken back
    # the orders of the turn are secret again: Bob (and anyone) reads who gave one, not what
    assert "left missile" not in words(service.handle(BOB, "game history", {}))
    assert "left missile" in words(service.handle(ANN, "game history", {}))  # its owner still does


def test_an_undo_gives_the_turn_a_deadline_again(jump: GameService) -> None:
    game = jump.store.game_in_channel(GUILD, CHANNEL)
    ask = jump.handle(GM, "gm undo", {"n": 2})
    assert jump.handle(GM, "gm undo", dict(ask.buttons[0].options)).ok
    kinds = {t.kind: t for t in game_timers(jump.store, game.id)}
    # a whole turn (24 h by default), not what was left of the jump's short wait
    assert kinds["deadline"].due_at >= jump.clock() + dt.timedelta(hours=23)


def test_a_kicked_player_s_ship_is_played_by_the_computer_until_replaced(store) -> None:
    service = arena(store)
    ask = service.handle(GM, "gm kick", {"user": BOB.user_id})
    kicked = service.handle(GM, "gm kick", dict(ask.buttons[0].options))
    assert "gm.kicked_computer" in keys(kicked)
    computers_play(service)
    game = service.store.game_in_channel(GUILD, CHANNEL)
    assert "Bob" in game.options["computers"]
    # the computer gave Bob's orders: the turn waits on Ann alone, and resolves when she is ready
    resolved = service.handle(ANN, "sb ready", {})
    assert "event.spaceblast.revealed" in keys(resolved)
    # a member takes the ship back: the computer stops playing it
    assert service.handle(GM, "gm replace", {"character": "Bob", "user": EVE.user_id}).ok
    assert "Bob" not in service.store.game_in_channel(GUILD, CHANNEL).options.get("computers", {})


def test_a_gm_taking_a_seat_themself_is_asked_first_and_the_history_says_so(jump: GameService) -> None:
    game = jump.store.game_in_channel(GUILD, CHANNEL)
    ask = jump.handle(GM, "gm replace", {"character": "Bob", "user": GM.user_id})
    assert keys(ask) == ["gm.replace_self.confirm"] and ask.buttons
    assert jump.store.seat_of_user(game.id, GM.user_id) is None  # nothing changed yet
    assert jump.handle(GM, "gm replace", dict(ask.buttons[0].options)).ok
    assert jump.store.seat_of_user(game.id, GM.user_id).actor == "Bob"
    assert f"the GM <@{GM.user_id}> handed **Bob** to <@{GM.user_id}>" in everything_eve_reads(jump)


def test_computers_playing_turns_back_to_back_post_each_turn_once(store) -> None:
    """Two computers in a small arena play the whole game, one turn after another after the start's
    answer: each turn's reveal posted once, one game over (the nested calls used to add every turn's
    posts again at each level)."""
    service = GameService(store, seed_source=lambda: 7)
    assert service.handle(GM, "sb new", {"name": "Duel", "radius": 4}).ok
    assert service.handle(GM, "sb challenge", {"level": "easy"}).ok
    assert service.handle(GM, "sb challenge", {"level": "easy"}).ok
    assert service.handle(GM, "gm start", {}).ok
    posted = post_keys(computers_play(service))
    game = service.store.game_in_channel(GUILD, CHANNEL)
    turns = sum(1 for e in service.store.log(game.id) if e.kind == "resolve")
    assert game.status == "finished" and turns > 1
    assert posted.count("event.spaceblast.revealed") == turns
    assert sum(key.startswith("game.over") for key in posted) == 1


def test_the_start_says_how_this_game_advances(store) -> None:
    service = GameService(store, seed_source=lambda: 2024)
    assert service.handle(GM, "sb new", {"name": "Nebula", "radius": 5}).ok
    assert service.handle(ANN, "sb join", {"name": "Ann"}).ok
    assert service.handle(BOB, "sb join", {"name": "Bob"}).ok
    started = service.handle(GM, "gm start", {})
    assert keys(started)[0] == "gm.started.deadline"
    assert "lottery" not in words(started)


def test_an_export_made_mid_turn_imports_back(store) -> None:
    """Sealed orders were left out of the export, leaving gaps in its numbering, which the import
    refused; they are in it now, sealed, and the import opens them: the same game comes back."""
    service = arena(store)
    service.handle(ANN, "sb order", {"text": "left missile"})
    service.handle(ANN, "sb ready", {})  # after the sealed order: the export renumbers around the gap
    exported = service.handle(GM, "gm export", {})
    assert "gm.exported_sealed" in keys(exported)
    elsewhere = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 1, manage_server=True)
    imported = service.handle(elsewhere, "gm import", {"file": exported.files[0]})
    assert keys(imported) == ["gm.imported"], words(imported)
    copy, game = service.store.game_in_channel(GUILD, CHANNEL + 1), service.store.game_in_channel(GUILD, CHANNEL)
    rules = __import__("engine.registry", fromlist=["get"]).get("spaceblast")
    assert rules.view(rules.from_json(copy.state)) == rules.view(rules.from_json(game.state))


def test_a_running_game_s_export_carries_its_seed_sealed(store) -> None:
    """SpaceBlast deals its secret powers from the seed: a seed in clear would tell the reader of an
    export every ship's powers. It leaves sealed, and only this bot opens it again."""
    import json

    from bot.service.sealing import KEY_NAME, seal_seed

    service = arena(store, seed=123_456_789)
    data = service.handle(GM, "gm export", {}).files[0].data
    doc = json.loads(data)
    assert "seed" not in doc["game"] and "123456789" not in data.decode()
    elsewhere = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 2, manage_server=True)
    assert keys(service.handle(elsewhere, "gm import", {"file": Attachment("nebula.json", data)})) == ["gm.imported"]
    assert service.store.game_in_channel(GUILD, CHANNEL + 2).seed == 123_456_789
    # a seed sealed by another bot's key (or edited) does not open: refused, nothing created
    doc["game"]["sealed_seed"] = seal_seed(b"another bot" * 3, 42)
    third = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL + 3, manage_server=True)
    refused = service.handle(third, "gm import", {"file": Attachment("x.json", json.dumps(doc).encode())})
    assert keys(refused) == ["error.bad_export"] and refused.messages[0].params["where"] == "game.sealed_seed"
    assert service.store.game_in_channel(GUILD, CHANNEL + 3) is None
    assert service.store.bot_key(KEY_NAME) == service.store.bot_key(KEY_NAME)  # one key, kept


def test_sealed_orders_of_different_lengths_seal_to_the_same_length() -> None:
    from bot.service.sealing import seal_payload, unseal_payload

    key = b"k" * 32
    short, long = seal_payload(key, {"text": "brake"}), seal_payload(key, {"text": "left missile mine; 2: brake"})
    assert len(short["sealed"]) == len(long["sealed"])
    assert unseal_payload(key, long) == {"text": "left missile mine; 2: brake"}
    assert unseal_payload(b"x" * 32, long) is None
