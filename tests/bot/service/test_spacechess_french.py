"""Space Chess in French through the service: the order language read and written in the reader's
words, French and seed names of items and powers accepted, refusals that change nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.spacechess import orderwords
from bot.i18n import translate
from bot.service import Context, GameService
from bot.service.status import status_messages
from engine.spacechess import SPACECHESS, legal
from engine.spacechess.orders import format_order, parse_orders

GUILD, CHANNEL = 10, 30
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="fr")


def player(user_id: int, name: str, locale: str = "fr") -> Context:
    return Context(user_id=user_id, user_name=name, guild_id=GUILD, channel_id=CHANNEL, locale=locale)


ANN, BOB, CID, DEE = player(2, "ann"), player(3, "bob"), player(4, "cid"), player(5, "dee")
CID_EN = player(4, "cid", "en-US")


def ok(reply):
    assert reply.ok, [(m.key, dict(m.params)) for m in reply.messages]
    return reply


def text(reply, language: str = "fr") -> str:
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages)


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def game(svc):
    return svc.store.game_in_channel(GUILD, CHANNEL)


def running(svc) -> GameService:
    """Generals Ann and Bob, soldiers Cid (sniper, scope, grenades) and Dee, in French, with AP."""
    ok(svc.handle(GM, "sc new", {"name": "Orion", "hp_soldier": 12}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "général"}))
    ok(svc.handle(BOB, "sc join", {"name": "Bob", "team": "2", "role": "general"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldat"}))
    ok(svc.handle(DEE, "sc join", {"name": "Dee", "team": "2", "role": "soldat"}))
    ok(svc.handle(ANN, "sc equip", {"card1": 1, "card2": 2}))
    ok(svc.handle(BOB, "sc equip", {"card1": 3, "card2": 4}))
    ok(svc.handle(CID, "sc equip", {"card1": 5, "card2": 6, "weapon": "sniper", "armour": "legere",
                                     "item1": "lunette de visée", "item2": "grenades", "ability": "rage"}))
    ok(svc.handle(DEE, "sc equip", {"card1": 7, "card2": 1, "weapon": "bolter", "armour": "Moyenne",
                                     "item1": "jet pack", "item2": "vigueur physique", "ability": "véhicule"}))
    ok(svc.handle(ANN, "sc deploy", {"cell": "L1"}))
    ok(svc.handle(BOB, "sc deploy", {"cell": "X44"}))
    ok(svc.handle(CID, "sc deploy", {"cell": "L2"}))
    ok(svc.handle(DEE, "sc deploy", {"cell": "L43"}))
    ok(svc.handle(GM, "gm start", {}))
    for name in ("Ann", "Cid"):
        ok(svc.handle(GM, "sc set", {"character": name, "ap": 9, "reason": "test"}))
    return svc


#: French orders and the English ones they mean, as a player types them
SAME_ORDERS = [
    ("déplace C12", "move C12"),
    ("Deplace c 12", "move C12"),
    ("bouge C12 lâche lunette de visée", "move C12 drop scope"),
    ("déplace C12 laisse munitions perforantes", "move C12 drop perforating"),
    ("deplace C12 lache bolter lourd", "move C12 drop heavy_bolter"),
    ("tir Jean Luc", "shoot Jean Luc"),
    ("Tire bob", "shoot bob"),
    ("grenade C12", "grenade C12"),
    ("véhicule", "vehicle"),
    ("rage", "rage"),
    ("amitié bob", "friendship bob"),
    ("frappe C12 NO", "airstrike C12 NW"),
    ("frappe c12 so", "airstrike C12 SW"),
    ("encouragement", "encourage"),
    ("intimidation bob D20", "intimidate bob D20"),
    ("piratage", "hack"),
    ("soigne bob", "heal bob"),
    ("soin bob", "heal bob"),
    ("téléporte Jean Luc K30", "teleport Jean Luc K30"),
    ("tir Dee; déplace K3", "shoot Dee; move K3"),
]


@pytest.mark.parametrize(("french", "english"), SAME_ORDERS)
def test_french_orders_read_as_the_english_ones(french: str, english: str) -> None:
    assert parse_orders(orderwords.read(french)) == parse_orders(orderwords.read(english))
    assert orderwords.read(french) == "; ".join(format_order(o) for o in parse_orders(english))


@pytest.mark.parametrize("english", sorted({english for _, english in SAME_ORDERS if ";" not in english}))
@pytest.mark.parametrize("language", ["fr", "en"])
def test_an_order_in_the_readers_words_reads_back_to_itself(english: str, language: str) -> None:
    order = parse_orders(english)[0]
    message = orderwords.order_message(order)
    shown = translate(message.key, language, message.params)
    assert parse_orders(orderwords.read(shown)) == (order,)


def test_french_order_words_are_french() -> None:
    shown = [translate(orderwords.order_message(parse_orders(e)[0]).key, "fr",
                       orderwords.order_message(parse_orders(e)[0]).params) for _, e in SAME_ORDERS if ";" not in e]
    assert "déplace C12 lâche viseur" in shown and "frappe C12 NO" in shown and "soin bob" in shown
    for english in ("move", "shoot", "drop", "airstrike", "heal", "hack", "scope", " NW", " SW"):
        assert not any(english in line for line in shown), english


def test_text_that_is_no_order_goes_to_the_engine_as_typed() -> None:
    assert orderwords.read("depl K3") == "depl K3"
    assert orderwords.read("tir Dee; deplace") == "tir Dee; deplace"


def test_the_log_keeps_the_canonical_order(svc) -> None:
    running(svc)
    ok(svc.handle(CID, "sc order", {"text": "Tire Ann ; déplace L3"}))
    entry = svc.store.log(game(svc).id)[-1]
    assert (entry.kind, entry.payload) == ("order", {"text": "shoot Ann; move L3"})


def test_a_refused_order_of_a_french_batch_is_named_in_french_and_changes_nothing(svc) -> None:
    running(svc)
    before = game(svc)
    reply = svc.handle(CID, "sc order", {"text": "tir Ann; deplace L28"})
    assert [m.key for m in reply.messages] == ["error.in_batch"]
    said = text(reply)
    assert "`déplace L28`" in said and "move" not in said
    assert "`move L28`" in text(reply, "en")
    assert (game(svc).version, game(svc).state) == (before.version, before.state)


def test_a_syntax_error_names_french_verbs_and_what_was_typed(svc) -> None:
    running(svc)
    said = text(svc.handle(CID, "sc order", {"text": "depl K3"}))
    assert "déplace, tir, grenade" in said and "`depl`" in said and "move" not in said


def test_orders_a_game_end_left_undone_are_said_in_french(svc) -> None:
    running(svc)
    ok(svc.handle(GM, "sc set", {"character": "Dee", "hp": 1, "reason": "test"}))
    ok(svc.handle(GM, "sc set", {"character": "Cid", "cell": "A42", "reason": "test"}))
    reply = ok(svc.handle(CID, "sc order", {"text": "tir Dee; déplace A41; grenade B40"}))
    cut = next(m for m in reply.messages if m.key == "event.spacechess.batch_cut")
    said = translate(cut.key, "fr", cut.params)
    assert "déplace A41, grenade B40" in said and "move" not in said
    assert "move A41, grenade B40" in translate(cut.key, "en", cut.params)


def test_french_verbs_get_suggestions_in_french(svc) -> None:
    running(svc)
    state = SPACECHESS.from_json(game(svc).state)
    shots = svc.complete(CID, "sc order", "text", "tir")
    assert shots and all(s.startswith("tir ") for s in shots)
    moves = svc.complete(CID, "sc order", "text", "dépl")
    assert moves and all(m.startswith("déplace ") for m in moves)
    assert svc.complete(CID, "sc order", "text", "deplace")[0].startswith("deplace ")  # as the player spells it
    assert all(m.startswith("move ") for m in svc.complete(CID, "sc order", "text", "mo"))  # English still works
    assert all(m.startswith("move ") for m in svc.complete(CID_EN, "sc order", "text", ""))
    for suggested in (*shots[:3], *moves[:3]):  # each suggestion is an order the game takes as it stands
        SPACECHESS.apply_input(state, "order", "Cid", {"text": orderwords.read(suggested)})
    strikes = svc.complete(ANN, "sc order", "text", "frappe")
    assert strikes and not any(s.endswith((" NW", " SW", " W")) for s in strikes)
    assert len(legal.reach(state, "Cid")) > 0


@pytest.mark.parametrize(("option", "value", "chosen"), [
    ("item1", "lunette de visée", "scope"), ("item1", "LUNETTE DE VISEE", "scope"),
    ("item1", "balles perforantes", "perforating"), ("item1", "outil logistique", "logistics"),
    ("armour", "legere", "light"), ("armour", "armure lourde", "heavy"), ("weapon", "bolteur lourd", "heavy_bolter"),
    ("ability", "rage destructrice", "rage"), ("ability", "amitie", "friendship"),
])
def test_the_seeds_and_the_guides_names_equip(svc, option: str, value: str, chosen: str) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldat"}))
    opts = {"card1": 5, "card2": 6, "weapon": "sniper", "armour": "light", "item1": "grenades",
            "item2": "vigour", "ability": "rage", option: value}
    ok(svc.handle(CID, "sc equip", opts))
    sheet = SPACECHESS.view(SPACECHESS.from_json(game(svc).state))["characters"]["Cid"]
    assert chosen in (sheet["weapon"], sheet["armour"], sheet["ability"], *sheet["items"])


@pytest.mark.parametrize("power", ["attaque aérienne", "frappe", "Frappe Aérienne", "airstrike"])
def test_the_air_strike_by_any_of_its_names(svc, power: str) -> None:
    running(svc)
    reply = ok(svc.handle(ANN, "sc power", {"power": power, "cell": "L20", "direction": "NO"}))
    strike = next(m for m in reply.messages if m.key == "event.spacechess.airstrike")
    said = translate(strike.key, "fr", strike.params)
    assert "vers NO" in said and "NW" not in said


def test_an_unknown_name_is_refused_and_changes_nothing(svc) -> None:
    running(svc)
    before = game(svc)
    reply = svc.handle(ANN, "sc power", {"power": "bombe", "cell": "L20", "direction": "N"})
    assert [m.key for m in reply.messages] == ["error.option_bad_choice"]
    assert (game(svc).version, game(svc).state) == (before.version, before.state)


def test_the_status_lines_name_gear_in_french(svc) -> None:
    running(svc)
    lines = [translate(m.key, "fr", m.params) for m in status_messages(svc, game(svc))]
    cid = next(line for line in lines if "**Cid**" in line)
    assert "sniper, armure légère · viseur, grenades" in cid, cid
    assert not any(word in cid for word in ("scope", "light", "HP", "AP"))


def test_a_refused_drop_names_the_item_in_french(svc) -> None:
    running(svc)
    ok(svc.handle(GM, "sc pickup", {"cell": "L3", "kind": "ap", "amount": 2}))
    before = game(svc)
    said = text(svc.handle(CID, "sc order", {"text": "déplace L3 lâche lunette de visée"}))
    assert "`viseur`" in said and "scope" not in said
    assert (game(svc).version, game(svc).state) == (before.version, before.state)


GUIDES = Path(__file__).resolve().parents[3] / "docs"


@pytest.mark.parametrize("guide", ["player-guide.fr.md", "player-guide.en.md"])
def test_every_order_text_of_the_guides_reads_as_an_order(guide: str) -> None:
    """The order texts the guides' Space Chess table shows (second column), in either language."""
    text = (GUIDES / guide).read_text(encoding="utf-8")
    table = text[text.index("| `/sc "):text.index("\n\n", text.index("| `/sc "))]
    shown = [snippet for row in table.splitlines() for snippet in re.findall(r"`([^`]+)`", row.split("|")[2])]
    orders = [snippet for snippet in shown if snippet not in (";", ";;")]
    assert len(orders) >= 15, orders
    for snippet in orders:
        if " " not in snippet and orderwords.fold(snippet) in orderwords.drop_words() | set(orderwords.verbs()):
            continue  # a keyword named alone ("`bouge`", "`laisse`"): it is one of the language's
        parse_orders(orderwords.read(snippet))


def test_the_help_shows_space_chess_examples_in_french(svc) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    said = text(svc.handle(CID, "game help", {}))
    assert 'texte:"déplace E5; tir Bob"' in said and 'arme:"bolter lourd"' in said and "armure:légère" in said
    assert "heavy_bolter" not in said and "move E5" not in said
    english = text(svc.handle(CID_EN, "game help", {}), "en")
    assert 'text:"move E5; shoot Bob"' in english and 'weapon:"heavy bolter"' in english


def test_a_loadout_refusal_names_the_part_in_french_and_changes_nothing(svc) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldat"}))
    before = game(svc)
    said = text(svc.handle(CID, "sc equip", {"card1": 2, "card2": 2, "weapon": "sniper", "armour": "légère",
                                             "item1": "viseur", "item2": "grenades", "ability": "rage"}))
    assert said.startswith("Équipement invalide pour vos cartes tirage : ") and "cards" not in said, said
    assert (game(svc).version, game(svc).state) == (before.version, before.state)


def test_the_sheet_and_the_rules_speak_french(svc) -> None:
    running(svc)
    sheet = text(svc.handle(CID, "game sheet", {}))
    assert "sniper, armure légère · objets : viseur, grenades · capacité : rage destructrice" in sheet, sheet
    rules = text(svc.handle(CID, "game rules", {}))
    assert "`déplace C12`" in rules and "`véhicule`" in rules and "`téléportation bob K30`" in rules
    assert not re.search(r"`(vehicle|encourage|intimidate|teleport)\b", rules), rules
    orders = [snippet for snippet in re.findall(r"`([^`]+)`", rules) if not snippet.startswith("docs/")]
    for snippet in orders:  # each order the rules show reads as one
        parse_orders(orderwords.read(snippet))


def test_the_loadout_takes_items_by_their_french_names_and_lists_them_in_french(svc) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldat"}))
    before = game(svc)
    refused = svc.handle(CID, "sc loadout", {"items": "viseur,laser"})
    said = text(refused)
    assert not refused.ok and "`laser`" in said and "viseur, munitions perforantes" in said, said
    assert "scope" not in said and "perforating" not in said, said
    assert (game(svc).version, game(svc).state) == (before.version, before.state)
    ok(svc.handle(CID, "sc loadout", {"weapon": "sniper", "armour": "légère", "items": "lunette de visée,vigueur",
                                      "ability": "rage", "cards": "1,5"}))
    sheet = SPACECHESS.view(SPACECHESS.from_json(game(svc).state))["characters"]["Cid"]
    assert sorted(sheet["items"]) == ["scope", "vigour"]
