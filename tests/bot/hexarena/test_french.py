"""Issue 24, HexArena in French (reconstructed rules): the demo's replies, status and sheet and every
word drawn on its boards come from the French catalog — ships named with their agreed colour
("Patrouille bleue 1 est détruite"), directions on the French compass (O, NO, SO), counts agreed —
and French input (``NO``, ``tourne``) plays the same turns as English; a French refusal leaves the
game as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.games import presenter_for
from bot.i18n import translate
from bot.service import Context, GameService
from engine import registry
from engine.core.protocol import Event

GUILD, CHANNEL = 10, 130
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, locale="fr")
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL, locale="fr")
ANN_EN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, locale="en-US")
RULES = registry.get("hexarena")
PRESENTER = presenter_for("hexarena")
#: English that French readers saw before (issue 24): sides as identifiers, English ship types and
#: west-pointing directions, the old "chasseur 2 (Rouge)" names, the clock naming `red`
ENGLISH = re.compile(r"\b(?:red|blue|fighter|patrol|admiral|NW|SW|W)\b|\((?:Rouge|Bleu)\)|→ W\b")
#: English words the boards drew before
DRAWN_ENGLISH = re.compile(r"\b(?:Turn|to move|Debris|reserve|graveyard|Ships|fighter|patrol|admiral|here|"
                           r"aboard|last move|wins|Red|Blue|reconstructed rules)\b")


def test_the_french_demo_reads_and_draws_french_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     drawn: list[str]) -> None:
    assert main(["demo", "hexarena", "--out", str(tmp_path), "--lang", "fr"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "🖼" not in line and "/tmp" not in line
             and str(tmp_path) not in line]
    text = "\n".join(lines)
    for said in ("Chasseur rouge 2 en G3 tourne E → NE.",
                 "Cargo bleu 3 en H11 tourne O → NO.",  # west is ouest
                 "Patrouille bleue 2 se déplace H12 → A6 (téléportation).",  # a patrol is feminine
                 "🔫 Amiral rouge en G1 tire vers E sur Chasseur bleu 2.",
                 "💥 Chasseur bleu 2 est détruit en G2 par Amiral rouge ; un débris prend sa case "
                 "(7 restent dans la réserve).",
                 "💥 Cargo rouge 2 est détruit en F10 par Patrouille bleue 1 ; Amiral rouge reste sur la case F10.",
                 "Cargo rouge 2 se déplace F2 → F4, avec Amiral rouge à bord.",
                 "🔴 Rouge — **Ann** · 9 vaisseaux en jeu, 0 perdu · amiral en G1 · a le trait",  # 0 is singular
                 "• Chasseur rouge 1 : D3, vers SE",
                 "Cimetière (1) : ✝ Cargo rouge 2",
                 "🏁 Fin de partie — **Rouge** gagne (son amiral a atteint la base adverse)."):
        assert said in text, said
    assert re.search(r"tour 10 · Rouge doit jouer avant", text), "the clock names the side in words"
    leaks = [line for line in lines if ENGLISH.search(line)]
    assert leaks == []
    for word in ("Arena — HexArena (règles reconstituées)", "Tour 1", "Rouge a le trait", "Bleu a le trait",
                 "Réserve de débris : 8", "Cimetière de Rouge : 1", "Cimetière de Bleu : 0", "Vaisseaux",
                 "amiral", "chasseur", "cargo", "patrouille", "amiral ici (ou à bord)", "débris", "base",
                 "dernier coup", "Rouge gagne (son amiral a atteint la base adverse)"):
        assert word in drawn, word
    assert [text for text in drawn if DRAWN_ENGLISH.search(text)] == []
    assert [text for text in drawn if text.endswith("...")] == []  # no French word cut to fit


def test_a_destroyed_patrol_agrees_in_french() -> None:
    event = Event("destroyed", {"ship": "blue_patrol1", "side": "blue", "type": "patrol", "at": "F10",
                                "by": "red_fighter2", "debris": True, "released": None, "reserve": 1})
    [said] = PRESENTER.describe(RULES, [event])
    assert translate(said.key, "fr", said.params) == (
        "💥 Patrouille bleue 1 est détruite en F10 par Chasseur rouge 2 ; un débris prend sa case "
        "(1 reste dans la réserve).")
    assert translate(said.key, "en", said.params) == (
        "💥 Blue patrol 1 is destroyed on F10 by Red fighter 2; a debris takes its cell (1 left in the reserve).")


@pytest.fixture
def svc(store) -> GameService:
    service = GameService(store, seed_source=lambda: 5)
    assert service.handle(GM, "hx new", {"name": "Arena"}).ok
    assert service.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert service.handle(BOB, "hx join", {"name": "Bob"}).ok
    assert service.handle(GM, "gm start", {}).ok
    return service


def state_of(svc: GameService) -> dict:
    return svc.store.game_in_channel(GUILD, CHANNEL).state


@pytest.mark.parametrize(("french", "english"), [
    (("hx rotate", {"cell": "G2", "direction": "NO"}), ("hx rotate", {"cell": "G2", "direction": "nw"})),
    (("hx rotate", {"cell": "G2", "direction": "no"}), ("hx order", {"text": "rotate G2 NW"})),
    (("hx order", {"text": "tourne G2 O"}), ("hx rotate", {"cell": "G2", "direction": "w"})),
    (("hx order", {"text": "Déplace G3 G4"}), ("hx move", {"cell": "G3", "to": "G4"})),
])
def test_french_input_plays_the_same_turn_as_english(store, french: tuple, english: tuple) -> None:
    played = []
    for command, options in (french, english):
        service = GameService(store, seed_source=lambda: 5)
        channel = CHANNEL + len(played) + 1
        gm, ann, bob = (Context(user_id=ctx.user_id, user_name=ctx.user_name, guild_id=GUILD, channel_id=channel,
                                manage_server=ctx.manage_server, locale=ctx.locale) for ctx in (GM, ANN, BOB))
        assert service.handle(gm, "hx new", {"name": "Arena"}).ok
        assert service.handle(ann, "hx join", {"name": "Ann"}).ok
        assert service.handle(bob, "hx join", {"name": "Bob"}).ok
        assert service.handle(gm, "gm start", {}).ok
        reply = service.handle(ann, command, options)
        assert reply.ok, reply.messages
        state = service.store.game_in_channel(GUILD, channel).state
        played.append({key: value for key, value in state.items() if key != "players"})
    assert played[0] == played[1]


def test_directions_are_suggested_as_the_reader_writes_them(svc: GameService) -> None:
    french = svc.complete(ANN, "hx rotate", "direction", "")
    english = svc.complete(ANN_EN, "hx rotate", "direction", "")
    # every ship faces E at the start: the other five facings, in each reader's letters
    assert set(french) == {"NE", "NO", "O", "SO", "SE"} and set(english) == {"NE", "NW", "W", "SW", "SE"}
    assert svc.complete(ANN, "hx rotate", "direction", "o") == ["O"]
    assert svc.handle(ANN, "hx rotate", {"cell": "G2", "direction": svc.complete(ANN, "hx rotate", "direction",
                                                                                  "n")[-1]}).ok


@pytest.mark.parametrize(("command", "options", "said"), [
    ("hx rotate", {"cell": "G2", "direction": "X"},
     "Ordre illisible : attendu une direction (E, NE, NO, O, SO, SE), trouvé `X`."),
    ("hx order", {"text": "vole G2"},
     "Ordre illisible : attendu une action (deplace, tourne, tir, eperonne, monte, descend, recycle), trouvé `vole`."),
    ("hx fire", {"cell": "F1"}, "Un vaisseau de type patrouille ne peut pas faire cela (tirer)."),
    ("hx rotate", {"cell": "G2", "direction": "E"},
     "Chasseur rouge 1 est déjà orienté E : une rotation doit changer l’orientation."),
])
def test_a_french_refusal_says_it_in_french_and_changes_nothing(svc: GameService, command: str, options: dict,
                                                                said: str) -> None:
    before = state_of(svc)
    reply = svc.handle(ANN, command, options)
    assert not reply.ok
    assert translate(reply.messages[0].key, "fr", reply.messages[0].params) == said
    assert state_of(svc) == before


def test_the_status_and_the_clock_name_the_side_in_words(svc: GameService) -> None:
    status = svc.handle(ANN, "game status", {})
    shown = [translate(m.key, "fr", m.params) for m in status.messages]
    assert any("Rouge doit jouer avant" in line for line in shown), shown
    clock = svc.handle(GM, "gm clock", {})
    assert translate(clock.messages[0].key, "fr", clock.messages[0].params).startswith("**Rouge** doit jouer avant")


def test_a_start_without_both_players_names_the_missing_side_in_words(store) -> None:
    service = GameService(store, seed_source=lambda: 5)
    assert service.handle(GM, "hx new", {"name": "Arena"}).ok
    assert service.handle(ANN, "hx join", {"name": "Ann"}).ok
    reply = service.handle(GM, "gm start", {})
    assert not reply.ok
    assert translate(reply.messages[0].key, "fr", reply.messages[0].params) == (
        "La partie ne peut pas encore commencer : personne ne joue encore Bleu.")


def test_the_order_language_is_suggested_in_the_readers_words_and_plays_the_same(svc: GameService) -> None:
    """`/hx order`'s suggestions (the presenter's `order_suggestions`): each legal turn in French
    verbs and directions, parsed back to the very same turn."""
    from engine.hexarena.orders import parse_turn

    state = RULES.from_json(state_of(svc))
    turns = list(RULES.legal_orders(state, "Ann"))
    french = list(PRESENTER.order_suggestions(RULES, turns, "fr", ""))
    english = list(PRESENTER.order_suggestions(RULES, turns, "en", ""))
    assert "tourne G2 NO" in french and "deplace G3 G4" in french and "rotate G2 NW" in english
    assert [parse_turn(text) for text in french] == [parse_turn(text) for text in english] == turns
    assert set(PRESENTER.order_suggestions(RULES, turns, "fr", "TOURNE G2")) == {
        "tourne G2 NE", "tourne G2 NO", "tourne G2 O", "tourne G2 SO", "tourne G2 SE"}
