"""Issue 24, Arkeon in French: the demo's replies, status and history and every word drawn on its
boards come from the French catalog — pieces with the article their sentence takes ("une triple
attaque", "le pion basique"), directions on the French compass, why a piece fell in words, counts
agreed — and French input (``type:basique``, ``anti-horaire``, ``NO``) plays the same moves as
English; a French refusal leaves the game as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.arkeon.commands import KINDS, kind_named
from bot.i18n import LANGUAGES, catalog, translate
from bot.service import Context, GameService
from engine import registry

GUILD = 10
RULES = registry.get("arkeon")
#: English that French readers saw before (issue 24): causes and turners as identifiers, English
#: kinds and directions, "vers aucun" for a piece without a facing, the clock naming `blue`
ENGLISH = re.compile(r"\b(?:blue|red|disconnected|attack|pacifier|cw|ccw|repulsor|NW|SW|W)\b|vers aucun|"
                     r"pièce base|avancées : aucun\b")
DRAWN_ENGLISH = re.compile(r"\b(?:Turn|to move|basic|in reserve|advanced|Pieces|rotator|pacifier|repulsor|"
                           r"last move|wins|Blue|Red)\b")


def test_the_french_demo_reads_and_draws_french_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     drawn: list[str]) -> None:
    assert main(["demo", "arkeon", "--out", str(tmp_path), "--lang", "fr"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "🖼" not in line and str(tmp_path) not in line]
    text = "\n".join(lines)
    for said in ("Bleu pose un pion basique en C3 (vers E).",
                 "Rouge pose un pion basique en B5 (vers SO).",
                 "Bleu pose une triple attaque en D3 (vers E).",  # feminine
                 "Bleu pose un répulseur en D4.",  # no facing, no "(vers aucun)"
                 "Le répulseur en D4 repousse la triple attaque de Bleu : D3 → D1.",
                 "Le répulseur en E4 repousse la base de Rouge : C6 → B6.",
                 "💥 Rouge perd la triple attaque en A4 (lien avec sa base rompu).",
                 "💥 Rouge perd le tournicoteur horaire en E4 (attaque depuis E3).",
                 "🔄 Le tournicoteur anti-horaire en E5 tourne le pion basique de Rouge en D6 : NE → NO.",
                 "🔄 Le pacificateur en E4 tourne le pion basique de Bleu en E3 : E → O.",
                 "réserve : 9 pions basiques, avancées : pacificateur, tournicoteur horaire · a le trait",
                 "réserve : 3 pions basiques, avancées : aucune",
                 "🏁 Fin de partie — victoire de Bleu (base de Rouge en B6 détruite, attaquée depuis B5)."):
        assert said in text, said
    assert re.search(r"tour 6 · Bleu doit jouer avant", text), "the clock names the side in words"
    assert [line for line in lines if ENGLISH.search(line)] == []
    for word in ("Duel — Arkeon", "Tour 1", "Bleu a le trait", "a le trait", "Bleu", "Rouge",
                 "basiques en réserve : 12", "avancées :", "Pièces", "base", "pion basique", "triple attaque",
                 "pacificateur", "tournicoteur horaire", "tournicoteur anti-horaire", "répulseur", "dernier coup",
                 "Bleu gagne (base détruite)"):
        assert word in drawn, word
    assert [text for text in drawn if DRAWN_ENGLISH.search(text)] == []
    assert [text for text in drawn if text.endswith("...")] == []  # the key's long French names fit


@pytest.mark.parametrize("kind", KINDS)
def test_every_name_of_a_piece_in_either_language_reads_as_it(kind: str) -> None:
    for language in LANGUAGES:
        for key in (f"word.choice.kind.{kind}", f"ak.kind.{kind}"):
            name = catalog(language)[key]
            assert kind_named(name) == kind_named(name.upper()) == kind, name
    assert kind_named("Répulseur") == kind_named("repulseur") == "repulsor"
    assert kind_named("truc") is None


def _game(store, channel: int) -> tuple[GameService, dict[str, Context]]:
    service = GameService(store, seed_source=lambda: 1)
    who = {name: Context(user_id=user, user_name=name.lower(), guild_id=GUILD, channel_id=channel,
                         manage_server=name == "GM", locale="fr") for user, name in ((1, "GM"), (2, "Ann"), (3, "Bob"))}
    assert service.handle(who["GM"], "ak new", {"name": "Duel"}).ok
    assert service.handle(who["Ann"], "ak join", {"name": "Ann"}).ok
    assert service.handle(who["Bob"], "ak join", {"name": "Bob"}).ok
    assert service.handle(who["GM"], "gm start", {}).ok
    return service, who


def _mover(service: GameService, who: dict[str, Context], channel: int) -> Context:
    state = RULES.from_json(service.store.game_in_channel(GUILD, channel).state)
    return who[RULES.view(state)["players"][RULES.waiting_on(state)[0]]]


def _setup(service: GameService, who: dict[str, Context], channel: int) -> None:
    """Both sides place their three setup basics (AK-10), in French."""
    while RULES.from_json(service.store.game_in_channel(GUILD, channel).state).phase == "placing":
        player = _mover(service, who, channel)
        cell = service.complete(player, "ak place", "cell", "", {"kind": "basique"})[0]
        facing = service.complete(player, "ak place", "direction", "", {"kind": "basique", "cell": cell})[0]
        assert service.handle(player, "ak place", {"kind": "basique", "cell": cell, "direction": facing}).ok


@pytest.mark.parametrize(("french", "english"), [
    ({"kind": "basique", "direction": "NO"}, {"kind": "basic", "direction": "nw"}),
    ({"kind": "Triple attaque", "direction": "so"}, {"kind": "triple", "direction": "SW"}),
    ({"kind": "anti-horaire"}, {"kind": "ccw"}),
    ({"kind": "tournicoteur horaire"}, {"kind": "clockwise (cw)"}),
    ({"kind": "répulseur"}, {"kind": "repulsor"}),
])
def test_french_pieces_and_directions_play_the_same_move_as_english(store, french: dict, english: dict) -> None:
    played = []
    for number, options in enumerate((french, english)):
        channel = 140 + number
        service, who = _game(store, channel)
        _setup(service, who, channel)
        player = _mover(service, who, channel)
        cell = service.complete(player, "ak place", "cell", "", {"kind": options["kind"]})[0]
        reply = service.handle(player, "ak place", {**options, "cell": cell})
        assert reply.ok, [translate(m.key, "fr", m.params) for m in reply.messages]
        played.append(service.store.game_in_channel(GUILD, channel).state)
    assert played[0] == played[1]


def test_pieces_and_directions_are_suggested_in_the_readers_words(store) -> None:
    service, who = _game(store, 150)
    _setup(service, who, 150)
    player = _mover(service, who, 150)
    kinds = service.complete(player, "ak place", "kind", "")
    assert kinds == ["basique", "triple", "pacificateur", "horaire", "anti-horaire", "répulseur"]
    cell = service.complete(player, "ak place", "cell", "", {"kind": "triple"})[0]
    facings = service.complete(player, "ak place", "direction", "", {"kind": "triple", "cell": cell})
    assert facings and set(facings) <= {"E", "NE", "NO", "O", "SO", "SE"}
    english = Context(user_id=player.user_id, user_name=player.user_name, guild_id=GUILD, channel_id=150,
                      locale="en-US")
    assert service.complete(english, "ak place", "kind", "") == [
        "basic", "triple", "pacifier", "clockwise (cw)", "counter-clockwise (ccw)", "repulsor"]


def test_french_refusals_say_it_in_french_and_change_nothing(store) -> None:
    service, who = _game(store, 160)
    _setup(service, who, 160)
    player = _mover(service, who, 160)
    game = service.store.game_in_channel(GUILD, 160)
    view = RULES.view(RULES.from_json(game.state))
    own = next(cell for cell, piece in view["cells"].items()
               if piece["kind"] == "basic" and piece["side"] == _side(service, 160))
    cases = [
        ({"kind": "truc", "cell": "C3"}, "ak place",
         "Ordre illisible : attendu un pion (basique, triple, pacificateur, horaire, antihoraire, repulseur), "
         "trouvé `truc`."),
        ({"kind": "basique", "cell": own, "direction": "X"}, "ak swap",
         "Ordre illisible : attendu une direction (E, NE, NO, O, SO, SE), trouvé `X`."),
        ({"kind": "basique", "cell": own, "direction": "E"}, "ak swap",
         f"Un échange fait évoluer un pion basique en pièce avancée ou régresser une pièce avancée en pion "
         f"basique : le pion basique en {own} ne peut pas devenir un pion basique."),
    ]
    for options, command, said in cases:
        reply = service.handle(player, command, options)
        assert not reply.ok
        assert translate(reply.messages[0].key, "fr", reply.messages[0].params) == said
        assert service.store.game_in_channel(GUILD, 160).state == game.state


def _side(service: GameService, channel: int) -> str:
    return RULES.waiting_on(RULES.from_json(service.store.game_in_channel(GUILD, channel).state))[0]


def test_a_turn_reads_in_the_history_by_what_it_did_whatever_its_language(store) -> None:
    service, who = _game(store, 170)
    player = _mover(service, who, 170)
    cell = service.complete(player, "ak place", "cell", "", {"kind": "basic"})[0]
    assert service.handle(player, "ak order", {"text": f"place basic {cell} NW"}).ok
    history = service.handle(player, "game history", {})
    said = [translate(m.key, "fr", m.params) for m in history.messages]
    assert any(f"pose un pion basique en {cell} (vers NO)." in line for line in said), said
    assert not any("place basic" in line for line in said)


def test_a_start_without_both_players_names_the_missing_side_in_words(store) -> None:
    service = GameService(store, seed_source=lambda: 1)
    gm = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=180, manage_server=True, locale="fr")
    assert service.handle(gm, "ak new", {"name": "Duel"}).ok
    reply = service.handle(gm, "gm start", {})
    assert not reply.ok
    assert translate(reply.messages[0].key, "fr", reply.messages[0].params) == (
        "La partie ne peut pas encore commencer : personne ne joue encore Bleu et Rouge.")


def test_the_order_language_is_suggested_in_the_readers_words_and_plays_the_same(store) -> None:
    """`/ak order`'s suggestions (the presenter's `order_suggestions`): each legal order in French
    words, parsed back to the very same order."""
    from bot.games import presenter_for
    from engine.arkeon.orders import parse_orders

    service, who = _game(store, 190)
    _setup(service, who, 190)
    state = RULES.from_json(service.store.game_in_channel(GUILD, 190).state)
    orders = list(RULES.legal_orders(state, RULES.waiting_on(state)[0]))
    presenter = presenter_for("arkeon")
    french = list(presenter.order_suggestions(RULES, orders, "fr", ""))
    english = list(presenter.order_suggestions(RULES, orders, "en", ""))
    assert [parse_orders(text) for text in french] == [parse_orders(text) for text in english] == [
        (order,) for order in orders]
    assert any(text.startswith("pose antihoraire ") for text in french)
    assert all(text.startswith("echange ") for text in presenter.order_suggestions(RULES, orders, "fr", "ECH"))
