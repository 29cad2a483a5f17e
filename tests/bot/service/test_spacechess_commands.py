"""Space Chess through the service layer: the lifecycle from creation to victory, and refusals."""

from __future__ import annotations

import json

import pytest

from bot.i18n import ChoiceText, Listing, translate
from bot.service import Attachment, Context, GameService, Message, Visibility
from engine.spacechess import SPACECHESS, legal
from tests.support.help_pages import every_help_entry

GUILD, CHANNEL = 10, 30
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="en-US")


def player(user_id: int, name: str) -> Context:
    return Context(user_id=user_id, user_name=name, guild_id=GUILD, channel_id=CHANNEL, locale="en-US")


ANN, BOB, CID, DEE = player(2, "ann"), player(3, "bob"), player(4, "cid"), player(5, "dee")
PNG = b"\x89PNG\r\n\x1a\n"


def keys(reply):
    return [m.key for m in reply.messages]


def ok(reply):
    assert reply.ok, [(m.key, dict(m.params)) for m in reply.messages]
    return reply


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def game(svc):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def lobby(svc) -> GameService:
    """Two generals and two soldiers joined, equipped and deployed, not started."""
    ok(svc.handle(GM, "sc new", {"name": "Orion", "hp_soldier": 12}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    ok(svc.handle(BOB, "sc join", {"name": "Bob", "team": "2", "role": "general"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}))
    ok(svc.handle(DEE, "sc join", {"name": "Dee", "team": "2", "role": "soldier"}))
    ok(svc.handle(ANN, "sc equip", {"card1": 1, "card2": 2}))
    ok(svc.handle(BOB, "sc equip", {"card1": 3, "card2": 4}))
    ok(svc.handle(CID, "sc equip", {"card1": 5, "card2": 6, "weapon": "sniper", "armour": "light",
                                     "item1": "grenades", "item2": "scope", "ability": "rage"}))
    ok(svc.handle(DEE, "sc equip", {"card1": 7, "card2": 1, "weapon": "bolter", "armour": "medium",
                                     "item1": "jetpack", "item2": "vigour", "ability": "vehicle"}))
    ok(svc.handle(ANN, "sc deploy", {"cell": "A1"}))
    ok(svc.handle(BOB, "sc deploy", {"cell": "X44"}))
    ok(svc.handle(CID, "sc deploy", {"cell": "L2"}))
    ok(svc.handle(DEE, "sc deploy", {"cell": "L43"}))
    return svc


def draw(svc, numbers, bonus=None):
    """A lottery draw as the draw pipeline applies it: the game's "draw" input."""
    return svc.apply_input(GM, game(svc), "draw", None, {"numbers": numbers, "bonus": bonus})


def test_create_builds_a_setup_phase_game_with_the_options(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion", "hp_soldier": 12, "map": "standard"}))
    g = game(svc)
    assert (g.kind, g.status, g.setup) == ("spacechess", "setup", {"phase": "setup", "map": "standard", "hp_soldier": 12})


def test_join_needs_team_and_role_and_a_free_seat(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    before = (game(svc), svc.store.seats(game(svc).id))
    assert keys(svc.handle(ANN, "sc join", {"name": "Ann"})) == ["error.missing_option"]
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    assert keys(svc.handle(BOB, "sc join", {"name": "Bo", "team": "1", "role": "general"})) == ["error.team_full"]
    assert len(svc.store.seats(game(svc).id)) == 1 != len(before[1])


def test_start_lists_what_is_missing(svc):
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    reply = svc.handle(GM, "gm start", {})
    assert keys(reply) == ["error.not_ready"]
    assert "• team 2: nobody plays its general yet" in translate("error.not_ready", "en", reply.messages[0].params)
    assert game(svc).status == "setup"


def test_a_whole_lifecycle_from_lobby_to_victory(svc):
    lobby(svc)
    assert keys(svc.handle(CID, "sc move", {"to": "L3"})) == ["error.not_allowed.not_started"]
    started = ok(svc.handle(GM, "gm start", {}))
    assert started.files and started.files[0].data.startswith(PNG)
    assert game(svc).status == "running"
    assert keys(svc.handle(CID, "sc deploy", {"cell": "M2"})) == ["error.not_allowed.started"]

    award = draw(svc, [29, 33, 36, 40, 41])  # cards 5 and 6 of Cid
    described = svc.describe(award)
    assert [m.key for m in described.messages][:2] == ["event.spacechess.draw_award", "turn.gain"]
    assert svc.handle(CID, "game sheet", {}).messages[0].params["ap"] == 5

    # a cheap move goes through at once, a costly one asks first
    ok(svc.handle(CID, "sc move", {"to": "L3"}))
    ok(svc.handle(GM, "sc set", {"character": "Cid", "ap": 9, "reason": "test"}))
    ask = svc.handle(CID, "sc move", {"to": "L6"})
    assert keys(ask) == ["sc.move.preview"] and ask.visibility is Visibility.PRIVATE and ask.buttons
    version = game(svc).version
    assert game(svc).version == version  # asking changed nothing
    moved = ok(svc.handle(CID, ask.buttons[0].command, dict(ask.buttons[0].options)))
    assert "event.spacechess.moved" in keys(moved) and moved.files[0].data.startswith(PNG)
    assert keys(svc.handle(CID, ask.buttons[0].command, dict(ask.buttons[0].options))) == ["error.stale_confirmation"]

    # the general's air strike finishes the enemy general: team 1 wins (SC-26, SC-29)
    ok(svc.handle(GM, "sc set", {"character": "Ann", "ap": 9, "reason": "test"}))
    ok(svc.handle(GM, "sc set", {"character": "Bob", "hp": 4, "reason": "test"}))
    strike = ok(svc.handle(ANN, "sc power", {"power": "airstrike", "cell": "X44", "direction": "w"}))
    assert "event.spacechess.game_over" in keys(strike)
    assert game(svc).status == "finished"
    assert keys(svc.handle(CID, "sc move", {"to": "L7"})) == ["error.game_over"]
    assert "game.info.winner" in keys(svc.handle(ANN, "game info", {}))


def test_orders_are_refused_for_outsiders_and_while_paused(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])
    outsider = player(77, "eve")
    assert keys(svc.handle(outsider, "sc move", {"to": "L3"})) == ["error.not_a_player"]
    ok(svc.handle(GM, "gm pause", {}))
    before = game(svc)
    assert keys(svc.handle(CID, "sc order", {"text": "move L3"})) == ["error.game_paused"]
    assert keys(svc.handle(CID, "sc move", {"to": "L3"})) == ["error.game_paused"]
    assert game(svc).state == before.state
    assert keys(svc.handle(GM, "gm pause", {})) == ["error.not_running"]
    ok(svc.handle(GM, "gm resume", {}))
    ok(svc.handle(CID, "sc order", {"text": "move L3"}))


def test_shoot_autocomplete_and_refusals_leave_state_unchanged(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])
    before = game(svc)
    assert keys(svc.handle(CID, "sc shoot", {"target": "Nobody"})) == ["error.unknown_character"]
    assert keys(svc.handle(CID, "sc power", {"power": "heal", "target": "Ann"})) == ["error.not_allowed.general_only"]
    assert keys(svc.handle(ANN, "sc power", {"power": "airstrike"})) == ["error.missing_option"]
    assert keys(svc.handle(CID, "sc ability", {"ability": "friendship"})) == ["error.missing_option"]
    assert game(svc).state == before.state and game(svc).version == before.version
    # SC-20: allies may be shot; the enemies are 41 rows away, beyond the sniper's 20 + 6
    assert svc.complete(CID, "sc shoot", "target", "") == ["Ann"]
    assert svc.complete(CID, "sc shoot", "target", "b") == []
    assert svc.complete(CID, "game rules", "game", "space") == ["spaceblast", "spacechess"]  # any member may ask the rules


def test_a_second_ability_or_power_in_a_turn_says_whose_and_which(svc):
    """Issue 26: "Already used this turn." named neither the character nor what was used."""
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [1, 2, 8, 9, 29, 33])  # Ann's cards 1 and 2: enough AP for an encouragement
    ok(svc.handle(CID, "sc ability", {"ability": "rage"}))
    ok(svc.handle(ANN, "sc power", {"power": "encourage"}))
    said = {}
    for ctx, path, opts in ((CID, "sc ability", {"ability": "rage"}), (ANN, "sc power", {"power": "encourage"})):
        [refusal] = svc.handle(ctx, path, opts).messages
        said[refusal.key] = {language: translate(refusal.key, language, refusal.params) for language in ("en", "fr")}
    assert said["error.already_used.ability"] == {
        "en": "Cid already used their ability (destructive rage) this turn: once per turn, until the next draw.",
        "fr": "Cid a déjà utilisé sa capacité (rage destructrice) pendant ce tour : une fois par tour, "
              "jusqu’au prochain tirage."}
    assert said["error.already_used.power"]["en"].startswith("Ann already used this power (encouragement) this turn")


def test_move_and_order_suggestions_come_from_the_legal_orders(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    assert svc.complete(CID, "sc move", "to", "") == []  # no AP yet: nowhere to go
    draw(svc, [29, 33, 36, 40, 41])
    state = SPACECHESS.from_json(game(svc).state)
    cells = svc.complete(CID, "sc move", "to", "")
    assert cells and set(cells) <= set(legal.reach(state, "Cid"))
    costs = legal.reach(state, "Cid")
    assert [costs[c] for c in cells] == sorted(costs[c] for c in cells)  # cheapest first
    orders = svc.complete(CID, "sc order", "text", "move")
    assert orders and all(text.startswith("move") for text in orders) and len(orders) <= 25
    for text in orders[:5]:  # each suggestion is an order the game accepts as it stands
        SPACECHESS.apply_input(state, "order", "Cid", {"text": text})
    assert svc.complete(player(77, "eve"), "sc order", "text", "") == []  # not a player: nothing


def test_gm_corrections_pickups_and_history(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    assert keys(svc.handle(CID, "sc set", {"character": "Cid", "reason": "x", "hp": 5})) == ["error.gm_only"]
    assert keys(svc.handle(GM, "sc set", {"character": "Cid", "reason": "lag"})) == ["error.missing_any_option"]
    ok(svc.handle(GM, "sc set", {"character": "Cid", "reason": "compensation", "ap": 4}))
    assert svc.handle(CID, "game sheet", {}).messages[0].params["ap"] == 4
    ok(svc.handle(GM, "sc pickup", {"cell": "L5", "kind": "ap", "amount": 2}))
    assert keys(svc.handle(GM, "sc pickup", {"cell": "L5", "kind": "item"})) == ["error.missing_option"]
    history = ok(svc.handle(ANN, "game history", {}))
    assert history.visibility is Visibility.PRIVATE
    newest = [translate(m.key, "en", m.params) for m in history.messages[1:3]]
    assert "the GM <@1> placed a bonus on L5: +2 AP." in newest[0]
    assert "the GM <@1> set Cid's AP to 4: compensation." in newest[1]


def test_board_with_reach_and_sheet_cards(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])
    board = ok(svc.handle(ANN, "game board", {}))
    assert board.files[0].data.startswith(PNG) and len(board.files[0].data) < 1_000_000
    reach = ok(svc.handle(ANN, "sc reach", {"character": "Cid"}))
    assert reach.files[0].data.startswith(PNG) and reach.files[0].data != board.files[0].data
    assert keys(svc.handle(ANN, "sc reach", {"character": "Zed"})) == ["error.unknown_character"]
    sheet = ok(svc.handle(ANN, "game sheet", {"character": "cid"}))
    assert sheet.files[0].filename == "sheet-Cid.png" and sheet.messages[0].params["weapon"] == Message("label.sniper")


def test_export_then_import_replays_the_same_game(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])
    ok(svc.handle(CID, "sc move", {"to": "L3"}))
    exported = ok(svc.handle(GM, "gm export", {}))
    doc = json.loads(exported.files[0].data)
    assert doc["view"]["characters"]["Cid"]["at"] == "L3"
    other = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=31, manage_server=True)
    imported = ok(svc.handle(other, "gm import", {"file": Attachment("export.json", exported.files[0].data)}))
    copy = svc.store.game_in_channel(GUILD, 31)
    assert copy.state == game(svc).state and imported.messages[0].params["inputs"] > 10
    bad = svc.handle(other, "gm import", {"file": Attachment("x.json", b"{}")})
    assert keys(bad) == ["error.channel_has_game"]
    third = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=32, manage_server=True)
    assert keys(svc.handle(third, "gm import", {"file": Attachment("x.json", b"{nope")})) == ["error.bad_export"]
    assert svc.store.game_in_channel(GUILD, 32) is None


def test_an_import_that_gives_a_draw_twice_is_refused_naming_the_entry(svc):
    """A crafted export whose log repeats a draw would have the imported game awarded it twice (its
    claims are a set: they could not stop it). Issue 22."""
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    record = {"date": "2024-03-02", "index": 1}
    svc.apply_input(GM, game(svc), "draw", None, {"numbers": [29, 33, 36, 40, 41], "draw": record})
    doc = json.loads(ok(svc.handle(GM, "gm export", {})).files[0].data)
    repeated = dict(doc["log"][-1], seq=len(doc["log"]) + 1)
    doc["log"].append(repeated)
    other = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=33, manage_server=True)
    refused = svc.handle(other, "gm import", {"file": Attachment("twice.json", json.dumps(doc).encode())})
    assert keys(refused) == ["error.bad_export"]
    assert refused.messages[0].params["where"] == f"log[{len(doc['log']) - 1}].payload.draw"
    assert refused.messages[0].params["reason"] == Message("export.draw_twice")
    assert svc.store.game_in_channel(GUILD, 33) is None


def test_kick_and_replace_hand_characters_over(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    ask = svc.handle(GM, "gm kick", {"user": DEE.user_id})
    assert keys(ask) == ["gm.kick.confirm"] and ask.buttons[0].style == "danger"
    ok(svc.handle(GM, "gm kick", dict(ask.buttons[0].options)))
    assert svc.store.seat_of_user(game(svc).id, DEE.user_id) is None
    assert svc.handle(GM, "game sheet", {"character": "Dee"}).messages[0].params["at"] == "L43"  # still there
    newcomer = player(8, "fay")
    ok(svc.handle(GM, "gm replace", {"character": "dee", "user": newcomer.user_id}))
    assert svc.store.seat_of_user(game(svc).id, newcomer.user_id).actor == "Dee"
    assert keys(svc.handle(GM, "gm replace", {"character": "Ann", "user": newcomer.user_id})) == [
        "error.user_already_plays"]
    assert keys(svc.handle(GM, "gm kick", {"user": 4242})) == ["error.user_not_playing"]


def test_leave_during_setup_only(svc):
    lobby(svc)
    ok(svc.handle(DEE, "game leave", {}))
    assert svc.store.seat_of_user(game(svc).id, DEE.user_id) is None
    assert keys(svc.handle(GM, "game sheet", {"character": "Dee"})) == ["error.unknown_character"]
    ok(svc.handle(DEE, "sc join", {"name": "Dee", "team": "2", "role": "soldier"}))
    ok(svc.handle(DEE, "sc equip", {"card1": 7, "card2": 1, "weapon": "bolter", "armour": "medium",
                                     "item1": "jetpack", "item2": "vigour", "ability": "vehicle"}))
    ok(svc.handle(DEE, "sc deploy", {"cell": "L43"}))
    ok(svc.handle(GM, "gm start", {}))
    assert keys(svc.handle(DEE, "game leave", {})) == ["error.leave_running"]


def test_end_needs_confirmation(svc):
    lobby(svc)
    ask = svc.handle(GM, "gm end", {})
    assert keys(ask) == ["gm.end.confirm"] and game(svc).status == "setup"
    ok(svc.handle(GM, "gm end", dict(ask.buttons[0].options)))
    assert game(svc).status == "finished"
    assert keys(svc.handle(GM, "gm end", {})) == ["error.game_over"]


def test_settings_change_language_role_and_pings(svc):
    reply = ok(svc.handle(GM, "gm settings", {"language": "en", "gm_role": "<@&555>", "pings": "none",
                                              "log_channel": "<#777>"}))
    assert reply.messages[0].params == {"language": ChoiceText("language", "en"),
                                        "role": Message("gm.settings.role", {"role": 555}),
                                        "pings": ChoiceText("pings", "none"),
                                        "log_channel": Message("gm.settings.channel", {"channel": 777})}
    member = Context(user_id=9, user_name="x", guild_id=GUILD, channel_id=CHANNEL, role_ids=frozenset({555}))
    assert svc.is_gm(member)
    assert keys(svc.handle(player(2, "ann"), "gm settings", {"language": "fr"})) == ["error.gm_only"]


def test_help_lists_every_command_with_its_description(svc):
    commands = [m.params["command"] for m in every_help_entry(svc, ANN)]
    assert "/sc move" in commands and "/gm undo" in commands
    assert keys(svc.handle(ANN, "game rules", {"game": "spacechess"})) == ["game.rules.header", "rules.spacechess"]


SMALL_MAP = "\n".join(["." * 10] * 12) + "\n"


def test_gm_map_replays_the_lobby_on_the_new_map(svc):
    lobby(svc)
    # the deployments on rows 43-44 no longer exist on a 12-row map: refused, nothing changes
    before = game(svc)
    refused = svc.handle(GM, "sc map", {"file": Attachment("small.map", SMALL_MAP.encode())})
    assert keys(refused) == ["error.bad_cell"] and game(svc) == before
    bad = svc.handle(GM, "sc map", {"file": Attachment("bad.map", b"..#\n.x.\n")})
    assert keys(bad) == ["error.setup"] and bad.messages[0].params["where"] == "map, line 2, column 2"
    assert game(svc) == before


def test_gm_map_before_deployment_and_not_after_start(svc):
    ok(svc.handle(GM, "sc new", {"name": "Small"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    loaded = ok(svc.handle(GM, "sc map", {"file": Attachment("small.map", SMALL_MAP.encode())}))
    assert loaded.messages[0].params == {"file": "small.map", "width": 10, "height": 12}
    assert loaded.files[0].data.startswith(PNG)
    assert game(svc).setup["map"] == SMALL_MAP
    assert keys(svc.handle(ANN, "sc deploy", {"cell": "J12"})) == ["error.bad_deployment"]
    ok(svc.handle(ANN, "sc deploy", {"cell": "J1"}))
    assert keys(svc.handle(ANN, "sc map", {"file": Attachment("small.map", SMALL_MAP.encode())})) == ["error.gm_only"]


def test_undo_after_kick_and_replace_replays_only_game_inputs(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    ok(svc.handle(GM, "sc set", {"character": "Cid", "ap": 9, "reason": "t"}))
    ok(svc.handle(CID, "sc move", {"to": "L3"}))
    ask = svc.handle(GM, "gm kick", {"user": DEE.user_id})
    ok(svc.handle(GM, "gm kick", dict(ask.buttons[0].options)))
    ok(svc.handle(GM, "gm replace", {"character": "Dee", "user": 8}))
    ask = svc.handle(GM, "gm undo", {})
    assert ask.messages[1].params["text"].key == "history.spacechess.order_events"  # the move, not the seat changes
    ok(svc.handle(GM, "gm undo", dict(ask.buttons[0].options)))
    assert svc.handle(CID, "game sheet", {}).messages[0].params["at"] == "L2"


def test_create_stores_the_draw_source_and_time_limit(svc):
    ok(svc.handle(GM, "sc new", {"name": "Timed", "draws": "manual", "limit_draws": 12,
                                    "end_date": "2027-03-31"}))
    assert game(svc).options == {"draws": "manual", "limit_draws": 12, "end_date": "2027-03-31"}
    info = svc.handle(ANN, "game info", {})
    assert "game.info.options" in keys(info)


def test_create_refuses_a_bad_end_date(svc):
    assert keys(svc.handle(GM, "sc new", {"name": "X", "end_date": "31/03/2027"})) == [
        "error.draw_bad_date"]
    assert game(svc) is None


def test_board_shows_the_exact_line_of_fire_between_two_characters(svc):
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    clear = ok(svc.handle(ANN, "sc line", {"shooter": "cid", "target": "Ann"}))
    assert keys(clear) == ["game.board", "game.board.line_clear"] and clear.files[0].data.startswith(PNG)
    far = ok(svc.handle(ANN, "sc line", {"shooter": "Cid", "target": "Dee"}))
    assert (far.messages[1].key, far.messages[1].params["blocked_at"]) == ("game.board.line_blocked", "L14")
    assert keys(svc.handle(ANN, "sc line", {"shooter": "Cid"})) == ["error.missing_option"]
    assert keys(svc.handle(ANN, "sc line", {"shooter": "Cid", "target": "Zed"})) == ["error.unknown_character"]


def test_the_loadout_form_asks_for_what_is_missing_then_equips(svc):
    ok(svc.handle(GM, "sc new", {"name": "Forms"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}))
    general = ok(svc.handle(ANN, "sc loadout", {}))
    assert [s.option for s in general.selects] == ["cards"] and general.update  # SC-7: cards only
    form = ok(svc.handle(CID, "sc loadout", {"weapon": "bolter"}))
    assert [s.option for s in form.selects] == ["weapon", "armour", "items", "ability", "cards"]
    assert form.selects[1].options == {"weapon": "bolter"} and form.visibility is Visibility.PRIVATE
    before = game(svc)
    assert keys(svc.handle(CID, "sc loadout", {"items": "grade-colonel,grade-lieutenant"})) == ["error.one_grade"]
    assert keys(svc.handle(CID, "sc loadout", {"cards": "2,x"})) == ["error.option_not_integer"]
    # typed items are held to the menu's choices: a `|` would break the menus' custom ids
    assert keys(svc.handle(CID, "sc loadout", {"items": "scope|vigour"})) == ["error.option_bad_choice"]
    assert game(svc) == before
    done = ok(svc.handle(CID, "sc loadout", {"weapon": "bolter", "armour": "light", "items": "grenades,grade-colonel",
                                             "ability": "vehicle", "cards": "3,4"}))
    assert keys(done) == ["event.spacechess.equipped"] and not done.selects
    sheet = svc.handle(CID, "game sheet", {}).messages[0].params
    assert (sheet["items"], sheet["cards"]) == (Listing((Message("label.grenades"), Message("label.grade"))), [3, 4])
