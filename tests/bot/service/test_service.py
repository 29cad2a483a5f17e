"""The service layer on the test-only tally game: create, join, info, orders, undo, refusals.

Every refusal is checked to leave the stored game exactly as it was (state, version, log).
"""

from __future__ import annotations

import pytest

from bot.games import games
from bot.i18n import CommandText, translate
from bot.service import Attachment, Context, GameService, Visibility

GUILD, CHANNEL = 10, 20
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ALICE = Context(user_id=2, user_name="alice", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL, locale="en-US")




@pytest.fixture
def svc(store):
    return GameService(store, seed_source=lambda: 1234)


def snapshot(svc: GameService):
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    return game, svc.store.log(game.id), svc.store.seats(game.id)


def keys(reply):
    return [m.key for m in reply.messages]


def started(svc: GameService) -> GameService:
    assert svc.handle(GM, "tl new", {"name": "Test game"}).ok
    assert svc.handle(ALICE, "tl join", {"name": "Alice"}).ok
    assert svc.handle(BOB, "tl join", {"name": "Bob"}).ok
    return svc


def test_create_binds_the_game_to_the_channel(svc):
    reply = svc.handle(GM, "tl new", {"name": "Test game"})
    assert reply.ok and keys(reply) == ["game.created"]
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert (game.kind, game.name, game.seed, game.created_by, game.version) == ("tally", "Test game", 1234, 1, 1)
    assert [e.kind for e in svc.store.log(game.id)] == ["create"]


def test_one_game_per_channel_and_gm_only(svc):
    assert keys(svc.handle(ALICE, "tl new", {"name": "X"})) == ["error.gm_only"]
    assert svc.store.game_in_channel(GUILD, CHANNEL) is None
    svc.handle(GM, "tl new", {"name": "First"})
    before = snapshot(svc)
    reply = svc.handle(GM, "tl new", {"name": "Second"})
    assert keys(reply) == ["error.channel_has_game"] and reply.visibility is Visibility.PRIVATE
    assert snapshot(svc) == before


def test_create_refuses_unknown_game_and_bad_setup(svc):
    # a game the bot does not serve has no command group: its `new` is an unknown command...
    unknown = svc.handle(GM, "chess new", {"name": "X"})
    assert keys(unknown) == ["error.unknown_command.suggest"] and unknown.visibility is Visibility.PRIVATE
    params = unknown.messages[0].params
    assert params["command"] == "/chess new" and params["suggestion"] in {CommandText(f"{e.group} new") for e in games()}
    # ...and naming it where a game is named is refused as an unknown game
    assert keys(svc.handle(GM, "game rules", {"game": "chess"})) == ["error.unknown_game"]
    bad = Attachment("setup.toml", b"goal = -3\n")
    reply = svc.handle(GM, "tl new", {"name": "X", "setup": bad})
    assert keys(reply) == ["error.setup"] and reply.messages[0].params["where"] == "goal"
    broken = Attachment("setup.toml", b"goal = = 3\n")
    assert keys(svc.handle(GM, "tl new", {"name": "X", "setup": broken})) == ["error.bad_setup_file"]
    assert svc.store.game_in_channel(GUILD, CHANNEL) is None


def test_create_imports_a_setup_document(svc):
    doc = Attachment("setup.json", b'{"setup": {"goal": 3}}')
    assert svc.handle(GM, "tl new", {"name": "Short", "setup": doc}).ok
    assert svc.store.game_in_channel(GUILD, CHANNEL).setup == {"goal": 3}


def test_join_seats_the_player_and_refuses_twice(svc):
    started(svc)
    game, log, seats = snapshot(svc)
    assert sorted((s.user_id, s.actor) for s in seats) == [(2, "Alice"), (3, "Bob")]
    assert [e.kind for e in log] == ["create", "join", "join"]
    assert game.state["state"]["tallies"] == {"Alice": 0, "Bob": 0}
    before = snapshot(svc)
    assert keys(svc.handle(ALICE, "tl join", {"name": "Alice2"})) == ["error.already_joined"]
    carol = Context(user_id=4, user_name="carol", guild_id=GUILD, channel_id=CHANNEL)
    assert keys(svc.handle(carol, "tl join", {"name": "alice"})) == ["error.name_taken"]
    assert snapshot(svc) == before


@pytest.mark.parametrize(
    ("name", "key"),
    [("", "error.option_empty"), ("x" * 33, "error.option_too_long"), ("@everyone", "error.bad_name_char"),
     ("<@123>", "error.bad_name_char"), ("**bold**", "error.bad_name_char"), ("a`b", "error.bad_name_char")],
)
def test_join_refuses_names_with_markdown_or_mentions(svc, name, key):
    svc.handle(GM, "tl new", {"name": "G"})
    before = snapshot(svc)
    assert keys(svc.handle(ALICE, "tl join", {"name": name})) == [key]
    assert snapshot(svc) == before


def test_orders_apply_and_are_logged(svc):
    started(svc)
    reply = svc.handle(ALICE, "tl order", {"text": "add 2; add 3"})
    assert reply.ok and keys(reply) == ["event.tally.added", "event.tally.added"]
    game, log, _ = snapshot(svc)
    assert game.state["state"]["tallies"]["Alice"] == 5
    assert (log[-1].kind, log[-1].actor, log[-1].user_id, log[-1].payload) == ("order", "Alice", 2, {"text": "add 2; add 3"})


def test_refused_orders_change_nothing(svc):
    started(svc)
    before = snapshot(svc)
    assert keys(svc.handle(ALICE, "tl order", {"text": "add 2; add 9"})) == ["error.out_of_range"]
    assert keys(svc.handle(ALICE, "tl order", {"text": "jump"})) == ["error.bad_syntax"]
    outsider = Context(user_id=9, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)
    assert keys(svc.handle(outsider, "tl order", {"text": "add 1"})) == ["error.not_a_player"]
    elsewhere = Context(user_id=2, user_name="alice", guild_id=GUILD, channel_id=999)
    assert keys(svc.handle(elsewhere, "tl order", {"text": "add 1"})) == ["error.no_game_here"]
    assert keys(svc.handle(ALICE, "tl order", {})) == ["error.missing_option"]
    assert keys(svc.handle(ALICE, "tl order", {"text": "add 1", "speed": "2"})) == ["error.unknown_option"]
    [other_game] = svc.handle(ALICE, "sc order", {"text": "move C12"}).messages
    assert other_game.key == "error.wrong_game_kind"
    # "a {kind} game" read "a arkeon game": the game's name stands without an article
    assert translate(other_game.key, "en", other_game.params) == "This channel plays tally: use that game's own commands."
    assert snapshot(svc) == before


def test_finished_game_refuses_orders(svc):
    started(svc)
    svc.handle(ALICE, "tl order", {"text": "add 5; add 5"})
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert game.status == "finished"
    info = svc.handle(BOB, "game info", {})
    assert "game.info.winner" in keys(info)
    assert keys(svc.handle(BOB, "tl order", {"text": "add 1"})) == ["error.game_over"]


def test_info_and_list(svc):
    started(svc)
    info = svc.handle(BOB, "game info", {})
    assert keys(info) == ["game.info", "game.info.seat", "game.info.seat"]
    assert info.messages[0].params["name"] == "Test game"
    listing = svc.handle(BOB, "game list", {})
    assert keys(listing) == ["game.list.item"]


def test_undo_asks_for_confirmation_then_rebuilds_from_the_log(svc):
    started(svc)
    svc.handle(ALICE, "tl order", {"text": "add 2"})
    svc.handle(BOB, "tl order", {"text": "add 4"})
    before = snapshot(svc)
    ask = svc.handle(GM, "gm undo", {"n": 1})
    assert keys(ask) == ["gm.undo.confirm", "gm.undo.entry"] and ask.visibility is Visibility.PRIVATE
    assert snapshot(svc) == before  # asking changes nothing
    button = ask.buttons[0]
    assert keys(svc.handle(ALICE, button.command, dict(button.options))) == ["error.gm_only"]
    done = svc.handle(GM, button.command, dict(button.options))
    assert keys(done) == ["gm.undo.done", "gm.undo.entry"]
    game, log, _ = snapshot(svc)
    assert game.state["state"]["tallies"] == {"Alice": 2, "Bob": 0}
    assert log[-1].kind == "undo" and log[-1].payload == {"seqs": [log[-2].seq]}
    # the same button again is stale: the game version moved on
    assert keys(svc.handle(GM, button.command, dict(button.options))) == ["error.stale_confirmation"]


def test_undo_of_a_join_frees_the_seat_and_replay_matches_snapshot(svc):
    started(svc)
    ask = svc.handle(GM, "gm undo", {"n": 2})
    svc.handle(GM, "gm undo", dict(ask.buttons[0].options))
    game, log, seats = snapshot(svc)
    assert seats == [] and game.state["state"]["tallies"] == {}
    rules_state = svc.replay(game, log)
    from engine import registry

    assert registry.get("tally").to_json(rules_state) == game.state
    assert keys(svc.handle(GM, "gm undo", {})) == ["error.nothing_to_undo"]


def test_undo_of_the_input_that_ended_the_game_asks_then_sets_it_running_again(svc):
    """Issue 23.2 (it overturns 9.5's "undo cannot cross the end"): a GM may take back the input
    that ended the game, after a confirmation that says it will be running again; until then, and
    for a stale confirmation, nothing changes."""
    started(svc)
    svc.handle(ALICE, "tl order", {"text": "add 5; add 5"})
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "finished"
    before = snapshot(svc)
    ask = svc.handle(GM, "gm undo", {})
    assert keys(ask)[0] == "gm.undo.confirm_reopen" and snapshot(svc) == before
    assert keys(svc.handle(GM, "gm undo", {"confirm": before[0].version - 1})) == ["error.stale_confirmation"]
    assert snapshot(svc) == before
    assert svc.handle(GM, "gm undo", dict(ask.buttons[0].options)).ok
    assert svc.store.game_in_channel(GUILD, CHANNEL).status == "running"


def test_option_types_are_checked(svc):
    started(svc)
    assert keys(svc.handle(GM, "gm undo", {"n": "two"})) == ["error.option_not_integer"]
    assert keys(svc.handle(GM, "gm undo", {"n": "0"})) == ["error.option_out_of_bounds"]
    assert keys(svc.handle(ALICE, "sc join", {"name": "X", "team": "3", "role": "general"})) == ["error.option_bad_choice"]
    assert keys(svc.handle(ALICE, "tl join", {"name": "X", "team": "1"})) == ["error.unknown_option"]
    assert keys(svc.handle(ALICE, "nope", {})) == ["error.unknown_command"]


def test_gm_role_and_creator_are_gms(svc):
    creator = Context(user_id=7, user_name="creator", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
    svc.handle(creator, "tl new", {"name": "G"})
    as_member = Context(user_id=7, user_name="creator", guild_id=GUILD, channel_id=CHANNEL)
    assert svc.is_gm(as_member, svc.store.game_in_channel(GUILD, CHANNEL))
    svc.store.set_guild_settings(GUILD, gm_role_id=55)
    with_role = Context(user_id=8, user_name="x", guild_id=GUILD, channel_id=CHANNEL, role_ids=frozenset({55}))
    assert svc.is_gm(with_role)
    assert not svc.is_gm(ALICE)


def test_language_follows_user_locale_then_server(svc):
    assert svc.language(BOB) == "en"
    assert svc.language(ALICE) == "fr"
    svc.store.set_guild_settings(GUILD, language="en")
    assert svc.language(ALICE) == "en"


def test_a_finished_game_stays_readable_and_a_new_one_can_follow(svc):
    started(svc)
    svc.handle(ALICE, "tl order", {"text": "add 5; add 5"})
    assert svc.handle(BOB, "game info", {}).ok
    assert not svc.handle(GM, "tl new", {"name": "Rematch"}).ok  # asked for explicitly (issue 23.8)
    assert svc.handle(GM, "tl new", {"name": "Rematch", "replace": True}).ok
    assert svc.store.game_in_channel(GUILD, CHANNEL).name == "Rematch"


def test_the_configured_language_applies_until_a_server_chooses_one(store):
    svc = GameService(store, default_language="en")
    assert svc.language(ALICE) == "en"
    assert svc.handle(GM, "gm settings", {"pings": "none"}).ok  # another setting: the language stays
    assert svc.language(ALICE) == "en"
    assert svc.handle(GM, "gm settings", {"language": "fr"}).ok
    assert svc.language(ALICE) == "fr" and svc.language(BOB) == "en"  # Bob's client says en-US


def test_every_game_order_command_suggests_its_legal_orders(svc):
    """`/<group> order` is declared for every game with suggestions from its `legal_orders`."""
    started(svc)
    assert svc.complete(ALICE, "tl order", "text", "") == [f"add {n}" for n in range(1, 6)]
    assert svc.complete(ALICE, "tl order", "text", "ADD 3") == ["add 3"]
    outsider = Context(user_id=9, user_name="eve", guild_id=GUILD, channel_id=CHANNEL)
    assert svc.complete(outsider, "tl order", "text", "") == []


def test_a_command_of_the_first_layout_points_to_each_games_own(svc):
    reply = svc.handle(GM, "gm create", {"name": "X"})
    assert keys(reply) == ["error.unknown_command.moved"]
    assert {CommandText("sc new"), CommandText("tl new")} <= set(reply.messages[0].params["commands"])
    assert CommandText("sc join") in svc.handle(ALICE, "game join", {}).messages[0].params["commands"]
