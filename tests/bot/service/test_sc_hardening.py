"""Issue 23, Space Chess: option values stay values, draw entry follows the Loto of its date, and
the replies that misled or printed raw ids. Every refusal leaves the game as it was."""

from __future__ import annotations

import pytest

from bot.i18n import OptionText, option_name, translate
from tests.bot.service.test_game_state_hardening import confirmed
from tests.bot.service.test_spacechess_commands import (
    ANN,
    CID,
    DEE,
    GM,
    game,
    keys,
    lobby,
    ok,
    svc,  # noqa: F401 — the Space Chess service fixture
)


def texts(reply, language):
    return [translate(m.key, language, m.params) for m in reply.messages]


def started(service):
    lobby(service)
    ok(service.handle(GM, "gm start", {}))
    ok(service.handle(GM, "sc set", {"character": "Cid", "ap": 9, "reason": "test"}))
    return service


def refused(service, ctx, path, options):
    """The refusal's message, checked to have changed nothing (version, state, log)."""
    before = game(service)
    log = service.store.log(before.id)
    reply = service.handle(ctx, path, options)
    assert not reply.ok, keys(reply)
    after = game(service)
    assert (after.version, after.state, service.store.log(after.id)) == (before.version, before.state, log)
    return reply.messages[0]


# -- 1. a slash option's value is one value, never order text ----------------------------------------

@pytest.mark.parametrize(("who", "path", "options", "option"), [
    (CID, "sc shoot", {"target": "Dee; move L5"}, "target"),
    (CID, "sc move", {"to": "L6;rage"}, "to"),
    (CID, "sc move", {"to": "L4 ; rage"}, "to"),
    (CID, "sc grenade", {"cell": "L5;rage"}, "cell"),
    (CID, "sc ability", {"ability": "friendship", "target": "Ann;rage"}, "target"),
    (ANN, "sc power", {"power": "heal", "target": "Cid; encourage"}, "target"),
    (ANN, "sc power", {"power": "teleport", "target": "Cid", "cell": "B2; hack"}, "cell"),
])
def test_an_option_value_never_runs_as_orders(svc, who, path, options, option):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "sc set", {"character": "Ann", "ap": 9, "reason": "test"}))
    message = refused(svc, who, path, options)
    assert message.params.get("option") == OptionText(option), message
    for lang in ("en", "fr"):  # named as each reader's Discord shows it
        assert f"`{option_name(option, lang)}`" in translate(message.key, lang, message.params)


# -- 4. the grenade's limit and AP, the item a move leaves behind --------------------------------

def test_a_second_grenade_names_the_grenade_limit_and_the_history_its_ap(svc):  # noqa: F811
    started(svc)
    thrown = ok(svc.handle(CID, "sc grenade", {"cell": "L5"}))
    assert "(1 AP; 8 AP left)" in texts(thrown, "en")[0]
    message = refused(svc, CID, "sc grenade", {"cell": "L5"})
    assert translate(message.key, "en", message.params) == "No grenade left this turn (limit 1 per turn)."
    assert translate(message.key, "fr", message.params) == "Plus de grenade pour ce tour (limite : 1 par tour)."
    far = refused(svc, CID, "sc grenade", {"cell": "L20"})
    assert far.key == "error.out_of_range"  # the reach first, as for a shot (SC-20, SC-23)
    history = texts(ok(svc.handle(CID, "game history", {})), "en")
    assert any("**Cid** threw a grenade at L5 (1 AP)." in line for line in history), history
    french = texts(ok(svc.handle(CID, "game history", {})), "fr")
    assert any("**Cid** a lancé une grenade en L5 (1 PA)." in line for line in french), french


def test_a_move_that_swaps_an_item_names_the_item_left(svc):  # noqa: F811
    started(svc)
    ok(svc.handle(GM, "sc pickup", {"cell": "L3", "kind": "item", "name": "perforating"}))
    moved = ok(svc.handle(CID, "sc move", {"to": "L3", "drop": "scope"}))
    assert "Cid picks up perforating ammo at L3 and leaves scope there." in texts(moved, "en"), texts(moved, "en")
    assert "Cid ramasse munitions perforantes en L3 et y laisse viseur." in texts(moved, "fr"), texts(moved, "fr")
    history = texts(ok(svc.handle(CID, "game history", {})), "en")
    assert any("picked up perforating ammo at L3 and left scope there" in line for line in history), history


# -- 6. roles and members shown as Discord shows them, never as raw ids ----------------------------

def test_gm_settings_shows_the_gm_role_as_a_role_mention(svc):  # noqa: F811
    unset = texts(ok(svc.handle(GM, "gm settings", {})), "en")[0]
    assert "GM role: none" in unset and "rôle MJ : aucun" in texts(ok(svc.handle(GM, "gm settings", {})), "fr")[0]
    shown = ok(svc.handle(GM, "gm settings", {"gm_role": 29921147399800485}))
    for lang in ("en", "fr"):
        assert "<@&29921147399800485>" in texts(shown, lang)[0], texts(shown, lang)


# -- 7. messages that agree with the rules and say what failed -------------------------------------

@pytest.mark.parametrize(("field", "value", "maximum"), [
    ("ap", 10, 9), ("ap", 100, 9), ("ap", -1, 9), ("hp", 13, 12), ("hp", 1000, 12), ("hp", -3, 12),
])
def test_a_correction_out_of_bounds_names_the_real_limit(svc, field, value, maximum):  # noqa: F811
    """SC-8/SC-11: the option says what the rules say, whichever side of it the value is."""
    started(svc)
    message = refused(svc, GM, "sc set", {"character": "Cid", field: value, "reason": "fix"})
    assert message.key == "error.bad_input.range"
    assert (message.params["minimum"], message.params["maximum"]) == (0, maximum)


def test_a_correction_with_nothing_to_correct_asks_for_at_least_one(svc):  # noqa: F811
    started(svc)
    message = refused(svc, GM, "sc set", {"character": "Cid", "reason": "fix"})
    assert translate(message.key, "en", message.params) == "Give at least one of: hp, ap, cell."
    assert translate(message.key, "fr", message.params) == "Donnez au moins une de ces options : pv, pa, case."


def test_a_game_name_has_the_limit_its_check_has(svc):  # noqa: F811
    from bot.service.commands import table
    from engine.core.names import NAME_MAX

    assert {path: table()[path].option("name").max_length for path in table()
            if path.endswith(" new") or path == "gm import"} == dict.fromkeys(
        [p for p in table() if p.endswith(" new") or p == "gm import"], NAME_MAX)
    reply = svc.handle(GM, "sc new", {"name": "N" * 40})
    assert not reply.ok and "32" in texts(reply, "en")[0] and "80" not in texts(reply, "en")[0]
    assert svc.store.game_in_channel(GM.guild_id, GM.channel_id) is None


@pytest.mark.parametrize(("text", "number", "order", "ordre"), [
    ("move L3; shoot Nobody", 2, "shoot Nobody", "tir Nobody"),
    ("move L3 ; mvoe L4", 2, "mvoe L4", "mvoe L4"),  # no order: named as it was typed
    ("tir Dee ; move L3", 1, "shoot Dee", "tir Dee"),
])
def test_a_batch_refusal_names_the_order_that_failed(svc, text, number, order, ordre):  # noqa: F811
    """The order is named in the reader's words, whatever language it was typed in."""
    started(svc)
    message = refused(svc, CID, "sc order", {"text": text})
    english = translate(message.key, "en", message.params)
    assert english.startswith(f"Order {number} of the batch (`{order}`) was refused, so none was applied: "), english
    assert translate(message.key, "fr", message.params).startswith(
        f"L’ordre {number} du lot (`{ordre}`) est refusé, donc aucun n’a été appliqué : ")


@pytest.mark.parametrize("text", ["tir Dee;;", ";", "move L3; ;rage", " ; move L3"])
def test_an_empty_part_of_a_batch_is_refused_wherever_it_is(svc, text):  # noqa: F811
    started(svc)
    message = refused(svc, CID, "sc order", {"text": text})
    assert "empty" in translate(message.key, "en", message.params), message
    assert "vide" in translate(message.key, "fr", message.params), message


def test_an_import_refused_on_replay_names_the_entry_and_why(svc):  # noqa: F811
    import json

    from bot.service import Attachment, Context

    started(svc)
    ok(svc.handle(CID, "sc move", {"to": "L3"}))
    ok(svc.handle(GM, "gm pause", {}))
    doc = json.loads(ok(svc.handle(GM, "gm export", {})).files[0].data)
    index = next(i for i, e in enumerate(doc["log"]) if e["kind"] == "order")
    doc["log"][index]["payload"]["text"] = "shoot Nobody"
    elsewhere = Context(user_id=1, user_name="gm", guild_id=GM.guild_id, channel_id=GM.channel_id + 10,
                        manage_server=True)
    reply = svc.handle(elsewhere, "gm import", {"file": Attachment("bad.json", json.dumps(doc).encode())})
    assert not reply.ok and reply.messages[0].params["where"] == f"log[{index}]"
    english, french = texts(reply, "en")[0], texts(reply, "fr")[0]
    assert f"entry {index + 1} of its log" in english and "There is no character called `Nobody`" in english, english
    assert f"l’entrée {index + 1} de son journal" in french and "Nobody" in french, french
    assert "refused: " not in english and "unknown_character" not in english
    assert svc.store.game_in_channel(GM.guild_id, GM.channel_id + 10) is None


# -- 8. ended games stay in sight; characters without a player are shown ---------------------------

def test_a_new_game_over_an_ended_one_is_asked_for_explicitly(svc):  # noqa: F811
    started(svc)
    ok(confirmed(svc, GM, "gm end"))
    ended = game(svc)
    message = refused(svc, GM, "sc new", {"name": "Lyra"})
    english = translate(message.key, "en", message.params)
    assert "Orion" in english and "/gm export" in english and "replace:true" in english, english
    assert "/game list ended:true" in english
    assert "/sc nouvelle … remplacer:true" in translate(message.key, "fr", message.params)
    created = ok(svc.handle(GM, "sc new", {"name": "Lyra", "replace": True}))
    assert game(svc).name == "Lyra"
    assert any("Orion" in line for line in texts(created, "en")), texts(created, "en")
    listed = texts(ok(svc.handle(GM, "game list", {"ended": True})), "en")
    assert any("Orion" in line and "finished" in line for line in listed), listed
    assert not any("Orion" in line for line in texts(ok(svc.handle(GM, "game list", {})), "en"))
    assert svc.store.get_game(ended.id).status == "finished"


def test_replace_is_refused_over_a_game_still_played(svc):  # noqa: F811
    started(svc)
    message = refused(svc, GM, "sc new", {"name": "Lyra", "replace": True})
    assert message.key == "error.channel_has_game"


def test_game_info_shows_a_kicked_character_without_a_player(svc):  # noqa: F811
    started(svc)
    ok(confirmed(svc, GM, "gm kick", user=DEE.user_id))
    lines = texts(ok(svc.handle(GM, "game info", {})), "en")
    assert "• **Dee** — no player" in lines, lines
    assert "• **Dee** — sans joueur" in texts(ok(svc.handle(GM, "game info", {})), "fr")
    assert f"• **Cid** — <@{CID.user_id}>" in lines


def test_a_correction_that_ends_the_game_asks_first_and_an_undo_sets_it_running_again(svc):  # noqa: F811
    """Issue 23.2: `/sc set hp:0` on a general ended the campaign with no question, and `/gm undo`
    then answered "The game is over"."""
    started(svc)
    ask = svc.handle(GM, "sc set", {"character": "Bob", "hp": 0, "reason": "typo"})
    assert keys(ask) == ["gm.fatal_set_ends.confirm"] and ask.buttons[0].style == "danger"
    assert game(svc).status == "running" and "Bob" in str(game(svc).state)  # nothing applied yet
    done = svc.handle(GM, ask.buttons[0].command, dict(ask.buttons[0].options))
    assert done.ok and game(svc).status == "finished"
    undo = svc.handle(GM, "gm undo", {})
    assert keys(undo)[0] == "gm.undo.confirm_reopen"
    ok(svc.handle(GM, "gm undo", dict(undo.buttons[0].options)))
    assert game(svc).status == "running"
    assert ok(svc.handle(GM, "sc set", {"character": "Bob", "ap": 2, "reason": "back in play"}))


def test_a_correction_that_kills_asks_first_and_a_harmless_one_applies_at_once(svc):  # noqa: F811
    started(svc)
    # Dee is team 2's last soldier: killing her also ends the game (SC-29), and the question says so
    ask = svc.handle(GM, "sc set", {"character": "Dee", "hp": 0, "reason": "rules call"})
    assert keys(ask) == ["gm.fatal_set_ends.confirm"] and game(svc).status == "running"
    before = game(svc).version
    assert keys(svc.handle(GM, "sc set", {"character": "Cid", "hp": 5, "reason": "ok"})) != ["gm.fatal_set.confirm"]
    assert game(svc).version == before + 1  # applied at once
    stale = svc.handle(GM, ask.buttons[0].command, dict(ask.buttons[0].options))
    assert keys(stale) == ["error.stale_confirmation"] and game(svc).status == "running"


def test_a_game_a_gm_ended_stays_ended(svc):  # noqa: F811
    started(svc)
    ask = svc.handle(GM, "gm end", {})
    ok(svc.handle(GM, "gm end", dict(ask.buttons[0].options)))
    assert keys(svc.handle(GM, "gm undo", {})) == ["error.game_over"]


def test_an_import_over_an_ended_game_is_asked_for_explicitly(svc):  # noqa: F811
    """As `/sc new` does (issue 23.8): the ended game is not replaced silently by an import."""
    from bot.service import Attachment

    started(svc)
    exported = ok(svc.handle(GM, "gm export", {})).files[0]
    ask = svc.handle(GM, "gm end", {})
    ok(svc.handle(GM, "gm end", dict(ask.buttons[0].options)))
    ended = game(svc)
    file = Attachment("orion.json", exported.data)
    assert keys(svc.handle(GM, "gm import", {"file": file})) == ["error.channel_has_ended_game_import"]
    assert game(svc).id == ended.id  # still the ended game here
    replaced = ok(svc.handle(GM, "gm import", {"file": file, "replace": True}))
    assert keys(replaced) == ["gm.imported", "game.created.replaced"] and game(svc).id != ended.id
