"""Issue 15, words: a history in sentences naming each author, a game-over line naming the winners
(pinged once), labels, agreement and plurals — in English and in French."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from bot.games import games, presenter_for
from bot.i18n import LANGUAGES, Count, Listing, translate
from bot.service import Context, GameService, Message, Reply
from bot.service.history import author_of, entry_words
from bot.store.repo import LogRecord
from engine import registry
from tests.bot.service.test_spacechess_commands import ANN, BOB, CID, DEE, GM, draw, game, lobby, ok

#: what must never reach a reader: JSON, a placeholder left unfilled, a key, a Python value
RAW = re.compile(r'[{}]|\b(?:history|event|label|game|sc|word)\.[a-z_]+|\bNone\b|\[\'|": ')


def texts(reply: Reply, language: str) -> list[str]:
    return [translate(m.key, language, m.params) for m in reply.messages]


@pytest.fixture
def svc(sqlite_store) -> GameService:
    return GameService(sqlite_store, seed_source=lambda: 99)


def played(svc: GameService) -> GameService:
    """A started Space Chess game with a draw, a move, a correction and a bonus placed."""
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])  # cards 5 and 6 are Cid's
    ok(svc.handle(CID, "sc move", {"to": "L3"}))
    ok(svc.handle(GM, "sc set", {"character": "Bob", "ap": 9, "reason": "lag"}))
    ok(svc.handle(GM, "sc pickup", {"cell": "L5", "kind": "ap", "amount": 2}))
    return svc


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_history_reads_as_sentences_and_names_every_author(svc: GameService, language: str) -> None:
    played(svc)
    history = ok(svc.handle(ANN, "game history", {"page": 1}))
    lines = texts(history, language)[1:]
    assert len(lines) == 10
    for line in lines:
        assert not RAW.search(line), line
        assert "**" in line or "<@1>" in line, line  # a character, a side, or the game master by name
    expected = {
        "en": ["**Cid** moved L2 → L3", "the GM <@1> set Bob's AP to 9: lag.",
               "the GM <@1> placed a bonus on L5: +2 AP.", "the GM <@1> applied the Loto draw",
               "Cid +", "the GM <@1> started the game.", "**Dee** took position on L43."],
        "fr": ["**Cid** a avancé de L2 à L3", "le MJ <@1> a corrigé Bob : PA à 9 (lag).",
               "le MJ <@1> a placé un bonus en L5 : +2 PA.", "le MJ <@1> a appliqué le tirage du Loto",
               "le MJ <@1> a lancé la partie.", "**Dee** a pris position en L43."],
    }[language]
    joined = "\n".join(lines)
    for fragment in expected:
        assert fragment in joined, (fragment, joined)


def test_the_oldest_page_has_the_lobby_in_words(svc: GameService) -> None:
    played(svc)
    lines = texts(ok(svc.handle(ANN, "game history", {"page": 2})), "en")[1:]
    joined = "\n".join(lines)
    assert "the GM <@1> created the game **Orion**." in joined
    assert "**Ann** joined Team 1 as general." in joined
    assert ("**Cid** chose their gear: sniper, light armour, grenades, scope and the destructive rage ability; "
            "cards 5 and 6.") in joined
    french = "\n".join(texts(ok(svc.handle(ANN, "game history", {"page": 2})), "fr"))
    assert "**Cid** a choisi son équipement : sniper, armure légère, grenades, viseur et la capacité rage " \
           "destructrice ; cartes 5 et 6." in french


def test_an_undone_entry_stays_readable_and_says_so(svc: GameService) -> None:
    played(svc)
    last = svc.store.log(game(svc).id)[-1].seq
    ask = svc.handle(GM, "gm undo", {"n": 1})
    assert texts(ask, "en")[1] == f"• #{last} the GM <@1> placed a bonus on L5: +2 AP."
    ok(svc.handle(GM, "gm undo", dict(ask.buttons[0].options)))
    lines = texts(ok(svc.handle(ANN, "game history", {})), "en")
    assert lines[1].endswith(f"the GM <@1> undid entries {last}.")
    assert lines[2].endswith("~~the GM <@1> placed a bonus on L5: +2 AP.~~ (undone)")
    assert "annulé" in texts(ok(svc.handle(ANN, "game history", {})), "fr")[2]


def test_every_input_kind_of_every_game_reads_without_json() -> None:
    """Each game's input kinds, and the service's bookkeeping, through its presenter's words; only a
    test-only game may fall back on the generic "kind (values)"."""
    bookkeeping = {"create": {"name": "X", "kind": "k", "options": {}}, "pause": {}, "resume": {}, "end": {},
                   "kick": {"user": 5}, "replace": {"user": 5}, "undo": {"seqs": [3, 4]},
                   "import": {"file": "x.json", "name": "X"}}
    payloads = {"order": {"text": "fly"}, "join": {"id": "Ann", "team": 1, "role": "soldier"},
                "draw": {"numbers": [1, 2, 3, 4, 5], "bonus": 6, "draw": {"date": "2025-03-01", "index": 1}},
                "gm_set": {"id": "Bob", "ap": 9, "reason": "lag"}, "pickup": {"at": "E5", "kind": "hp", "amount": 2},
                "equip": {"id": "Ann", "cards": [1, 2]}, "timeout": {"actor": "blue"}, "time_jump": {"text": "left"},
                "deploy": {"id": "Ann", "at": "K1"}, "leave": {"id": "Ann"}, "map": {"file": "x.map"},
                "limit_reached": {"turn": 3, "draw": "2025-03-01"}}
    when = dt.datetime(2025, 3, 1, tzinfo=dt.UTC)
    for entry in games():
        rules, presenter = registry.get(entry.kind), presenter_for(entry.kind)
        for kind in sorted(set(rules.input_kinds) | set(bookkeeping)):
            for actor, user in (("Ann", 2), (None, 1), (None, None)):
                record = LogRecord(1, 1, kind, actor, user, payloads.get(kind) or bookkeeping.get(kind) or {}, when)
                message = entry_words(presenter, rules, record)
                if entry.kind in ("spacechess", "spaceblast", "arkeon", "hexarena"):
                    assert message.key != "history.input", (entry.kind, kind)
                for language in LANGUAGES:
                    text = translate(message.key, language, message.params)
                    assert not RAW.search(text), (entry.kind, kind, text)


def test_authors_are_the_actor_a_game_master_or_the_bot() -> None:
    rules = registry.get("spacechess")
    when = dt.datetime(2025, 3, 1, tzinfo=dt.UTC)
    said = {(actor, user): translate(author_of(rules, LogRecord(1, 1, kind, actor, user, {}, when)).key, "en",
                                     author_of(rules, LogRecord(1, 1, kind, actor, user, {}, when)).params)
            for kind, actor, user in (("order", "Ann", 2), ("gm_set", None, 1), ("draw", None, None))}
    assert said == {("Ann", 2): "**Ann**", (None, 1): "the GM <@1>", (None, None): "the bot"}


def test_an_export_keeps_each_entrys_author_and_an_import_reads_them_again(svc: GameService) -> None:
    played(svc)
    export = ok(svc.handle(GM, "gm export", {}))
    log = json.loads(export.files[0].data)["log"]
    correction = next(e for e in log if e["kind"] == "gm_set")
    assert correction["author"] == {"role": "gm", "user": 1}
    move = next(e for e in log if e["kind"] == "order")
    assert move["author"] == {"role": "player", "actor": "Cid", "user": CID.user_id}
    elsewhere = Context(user_id=1, user_name="gm", guild_id=10, channel_id=31, manage_server=True)
    ok(svc.handle(elsewhere, "gm import", {"file": export.files[0]}))
    lines = texts(ok(svc.handle(elsewhere, "game history", {})), "en")
    assert any("the GM <@1> set Bob's AP to 9: lag." in line for line in lines)


# -- the end -----------------------------------------------------------------------------------------
def fatal_set(svc: GameService, name: str) -> Reply:
    """A correction that kills `name`, confirmed (a fatal one asks first)."""
    ask = svc.handle(GM, "sc set", {"character": name, "hp": 0, "reason": "test"})
    return ok(svc.handle(GM, ask.buttons[0].command, dict(ask.buttons[0].options)))


def test_the_end_names_the_winning_team_and_pings_its_players_once(svc: GameService) -> None:
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    end = fatal_set(svc, "Bob")  # team 2's general falls
    english, french = texts(end, "en"), texts(end, "fr")
    assert "🏁 Game over — Team 1 wins: Team 2's general is down." in english
    assert f"🏆 Team 1 wins: **Ann** (<@{ANN.user_id}>) and **Cid** (<@{CID.user_id}>)." in english
    assert "🏁 Fin de partie — victoire de l’équipe 1 : le général de l’équipe 2 est tombé." in french
    assert f"🏆 Victoire de l’équipe 1 : **Ann** (<@{ANN.user_id}>) et **Cid** (<@{CID.user_id}>)." in french
    assert end.mentions == (ANN.user_id, CID.user_id)
    assert not any("winner: 1" in line for line in english)
    info = texts(ok(svc.handle(DEE, "game info", {})), "en")
    assert "Winner: Team 1." in info


def test_no_ping_for_the_winners_under_a_none_policy(svc: GameService) -> None:
    lobby(svc)
    ok(svc.handle(GM, "gm settings", {"pings": "none"}))
    ok(svc.handle(GM, "gm start", {}))
    end = fatal_set(svc, "Ann")
    assert "game.over.winners" in [m.key for m in end.messages] and end.mentions == ()


def test_an_arkeon_resignation_names_the_other_side_and_its_player(svc: GameService) -> None:
    ok(svc.handle(GM, "ak new", {"name": "Duel"}))
    ok(svc.handle(ANN, "ak join", {"name": "Ann"}))
    ok(svc.handle(BOB, "ak join", {"name": "Bob"}))
    ok(svc.handle(GM, "gm start", {}))
    ask = svc.handle(ANN, "ak resign", {})
    end = ok(svc.handle(ANN, "ak resign", dict(ask.buttons[0].options))) if ask.buttons else ask
    english = "\n".join(texts(end, "en"))
    assert "🏁 Game over — Red wins (resigned)." in english
    assert f"🏆 Red wins: **Bob** (<@{BOB.user_id}>)." in english
    assert "Victoire de Rouge" in "\n".join(texts(end, "fr")) and end.mentions == (BOB.user_id,)


# -- labels, agreement, plurals ---------------------------------------------------------------------
def test_french_replies_use_the_labels_and_need_no_gender(svc: GameService) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(DEE, "sc join", {"name": "Anaïs", "team": "2", "role": "soldier"}))
    equipped = ok(svc.handle(DEE, "sc equip", {"card1": 7, "card2": 1, "weapon": "heavy bolter", "armour": "light",
                                              "item1": "scope", "item2": "vigour", "ability": "vehicle"}))
    assert texts(equipped, "fr") == ["Anaïs a son équipement : bolter lourd, armure légère, viseur, vigueur et la "
                                     "capacité véhicule ; cartes 7 et 1."]
    deployed = ok(svc.handle(DEE, "sc deploy", {"cell": "L43"}))
    assert texts(deployed, "fr")[0] == "Anaïs prend position en L43."
    sheet = ok(svc.handle(DEE, "game sheet", {}))
    assert "objets : viseur, vigueur" in texts(sheet, "fr")[0]


def test_counted_nouns_agree_in_each_language() -> None:
    def say(n: int, language: str) -> str:
        return translate("gm.undo.done", language, {"n": Count(n, "word.actions")})

    assert [say(n, "en") for n in (0, 1, 2)] == ["Undone: 0 actions.", "Undone: 1 action.", "Undone: 2 actions."]
    assert [say(n, "fr") for n in (0, 1, 2)] == ["Annulé : 0 action.", "Annulé : 1 action.", "Annulé : 2 actions."]
    listed = {"winner": Listing((Message("label.scope"), Message("label.vigour"), "x"), conjunction=True)}
    assert translate("game.info.winner", "fr", listed) == "Vainqueur : viseur, vigueur et x."
    assert translate("game.info.winner", "en", {"winner": Listing(())}) == "Winner: none."


def test_a_move_of_one_cell_says_cell(svc: GameService) -> None:
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    draw(svc, [29, 33, 36, 40, 41])
    moved = ok(svc.handle(CID, "sc move", {"to": "L3"}))
    assert "(1 cell, " in texts(moved, "en")[0] and "(1 case, " in texts(moved, "fr")[0]


def test_the_start_refusal_lists_what_is_missing_in_words(svc: GameService) -> None:
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(ANN, "sc join", {"name": "Ann", "team": "1", "role": "general"}))
    refused = svc.handle(GM, "gm start", {})
    text = texts(refused, "en")[0]
    assert "• Ann: no cards, not deployed" in text and not RAW.search(text.replace("`", ""))
    assert "• Ann : pas de cartes, pas encore sur le plateau" in texts(refused, "fr")[0]
