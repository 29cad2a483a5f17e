"""Issue 24, SpaceBlast in French: the demo's replies and every word drawn on its arena, its replay
GIF and its ship cards come from the French catalog — orders echoed and revealed in the French order
words (``gauche missile``), tokens left counted with their plurals, powers, causes and reasons by
their French names, directions on the French compass (O, NO, SO) — and French input (``gauche``,
``frein``, ``pouvoir bouclier``, ``/sb jetons virage:gauche``) plays the same turns as English; a
French refusal leaves the game as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.games import presenter_for
from bot.games.spaceblast.words import order_text
from bot.i18n import translate
from bot.service import Context, GameService, Reply
from engine import registry
from engine.core.protocol import Event
from engine.spaceblast.orders import parse_orders

GUILD, CHANNEL = 10, 140
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, locale="fr")
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL, locale="fr")
ANN_EN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL, locale="en-US")
RULES = registry.get("spaceblast")
PRESENTER = presenter_for("spaceblast")
#: English that French readers saw before (issue 24): the arena's opening as the engine's data, tokens
#: left and order echoes in English, powers, causes and reasons by their identifiers, west-pointing
#: directions
ENGLISH = re.compile(r"\b(?:id|at|facing|turns|brakes|powers|left|right|brake|power|none|survivor|energy|"
                     r"superturn|timejump|slip|shield|armour|rearshot|NW|SW|W)\b")
#: English words the arena, the GIF's captions and the ship cards drew before
DRAWN_ENGLISH = re.compile(r"\b(?:Turn|turn|facing|disqualified|eliminated|asteroid|taken|winner|Orders|revealed|"
                           r"Movement|Firing|Damage|Game over|Hits|Brakes|Powers|tokens|NW|SW|W)\b")


def said(reply: Reply, language: str = "fr") -> list[str]:
    return [translate(m.key, language, m.params) for m in reply.messages]


def test_the_french_demo_reads_and_draws_french_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     drawn: list[str]) -> None:
    assert main(["demo", "spaceblast", "--out", str(tmp_path), "--lang", "fr"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "🖼" not in line and str(tmp_path) not in line]
    text = "\n".join(lines)
    for line in ("L’arène s’ouvre : **Ann** en A1 vers SE, **Bob** en A5 vers SO, **Cid** en E9 vers O, "
                 "**Dee** en I5 vers NO, **Eve** en I1 vers NE, **Fay** en E1 vers E. ☄ 2 astéroïdes : D2 et E5.",
                 "Vos ordres pour **Bob** ce tour : `gauche frein mine`",
                 "Restant après ce tour : 9 virages, 1 frein, 8 missiles, 2 mines ; pouvoirs : saut temporel.",
                 "📜 Tour 1 — ordres : **Ann** frein frein missile missile missile, **Bob** gauche frein mine,",
                 "pouvoir recharge, **Bob** gauche droite frein",
                 "↻ **Cid** tourne O → SO.",  # west is ouest
                 "↻ **Dee** tourne NO → O.",
                 "🔫 **Cid** tire depuis F8 vers SO.",
                 "**Ann** récupère 3 missiles (recharge) : 7 désormais.",
                 "✨ **Cid** joue son pouvoir : super virage.",
                 "disqualifié (0 point perdu).",  # 0 is singular in French
                 "disqualifié (1 point perdu).",
                 "⭐ **Bob** +1 (survivant) : 1.",
                 "🏁 Fin de partie — victoire de Bob."):
        assert line in text, line
    assert [line for line in lines if ENGLISH.search(line)] == []
    for word in ("Nebula — SpaceBlast", "Tour 1", "Tour 9", "Ordres révélés", "1. Rotation", "3. Déplacement",
                 "5. Tirs", "6. Dégâts", "A1 vers SE", "F8 vers SO", "I5 vers NO", "score 0", "sorti de l’arène",
                 "disqualifié", "vainqueur", "vainqueur : Bob", "missile", "mine (active)", "mine (inactive)",
                 "astéroïde", "coup reçu"):
        assert word in drawn, word
    assert [text for text in drawn if DRAWN_ENGLISH.search(text)] == []
    assert [text for text in drawn if text.endswith("...")] == []  # no French word cut to fit


@pytest.mark.parametrize(("kind", "params", "french", "english"), [
    ("rotated", {"ship": "Ann", "from": "W", "to": "NW", "steps": 1},
     "↻ **Ann** tourne O → NO.", "↻ **Ann** turns W → NW."),
    ("shielded", {"ship": "Ann", "cause": "ram", "by": "Bob"},
     "🛡 Le bouclier d’**Ann** encaisse le coup (éperonnage).", "🛡 **Ann**'s shield takes the ram."),
    ("power_played", {"ship": "Ann", "power": "shield"},
     "✨ **Ann** joue son pouvoir : bouclier.", "✨ **Ann** plays shield."),
    ("recovered", {"ship": "Ann", "power": "energy", "kind": "turns", "amount": 2, "now": 5},
     "**Ann** récupère 2 virages (réserve d’énergie) : 5 désormais.",
     "**Ann** recovers 2 turns (energy reserve): 5 now."),
    ("damaged", {"ship": "Bob", "cause": "collision", "by": None, "hits": 2},
     "**Bob** est touché (collision) : 2/4.", "**Bob** is hit (collision): 2/4."),
    ("scored", {"ship": "Bob", "points": 1, "reason": "survivor", "victim": None, "total": 4},
     "⭐ **Bob** +1 (survivant) : 4.", "⭐ **Bob** +1 (survivor): 4."),
    ("slipped", {"ship": "Ann", "from": "E5", "to": "D5", "side": "left"},
     "**Ann** glisse à gauche : E5 → D5.", "**Ann** slips left: E5 → D5."),
    ("collision", {"ships": ["Ann", "Bob"], "cell": "E6", "kind": "same_cell"},
     "💥 Collision en E6 : **Ann** et **Bob**.", "💥 Collision at E6: **Ann** and **Bob**."),
    ("powers_dealt", {"ship": "Ann", "powers": ["superturn", "rearshot"]},
     "Vos pouvoirs (secrets jusqu’à ce que vous les jouiez) : super virage, tir arrière.",
     "Your powers (secret until played): super turn, rear shot."),
    ("time_jump_offer", {"ship": "Ann", "orders": {"Ann": ["power timejump"], "Bob": ["left", "brake"]}},
     "Saut dans le temps pour **Ann** : les ordres de tous sont **Ann** pouvoir saut-temporel, **Bob** gauche "
     "frein. Changez les vôtres avec `/sb ordre`, puis Prêt.",
     "Time jump for **Ann**: everyone's orders are **Ann** power timejump, **Bob** left brake. Change yours "
     "with `/sb order`, then Ready."),
])
def test_each_event_reads_in_french_and_in_english(kind: str, params: dict, french: str, english: str) -> None:
    [message] = PRESENTER.describe(RULES, [Event(kind, params)])
    assert translate(message.key, "fr", message.params) == french
    assert translate(message.key, "en", message.params) == english


def test_the_order_words_read_back_in_either_language() -> None:
    """Every token and power written in the French order words (and the English ones) parses back to
    the very order it writes."""
    powers = ("energy", "turbo", "superturn", "slip", "timejump", "shield", "recharge", "armour", "rearshot")
    for text in ("left missile", "right brake mine", "none", "Ann 2: left", *(f"power {name}" for name in powers)):
        [order] = parse_orders(text)
        for language in ("fr", "en"):
            written = order_text(order, language)
            assert parse_orders(written) == (order,), (language, written)
    [order] = parse_orders("power superturn left brake")
    assert order_text(order, "fr") == "gauche frein pouvoir super-virage"
    assert order_text(parse_orders("none")[0], "fr") == "rien"


def start(store, channel: int = CHANNEL, **options: object) -> GameService:
    service = GameService(store, seed_source=lambda: 5)
    gm, ann, bob = (Context(user_id=ctx.user_id, user_name=ctx.user_name, guild_id=GUILD, channel_id=channel,
                            manage_server=ctx.manage_server, locale=ctx.locale) for ctx in (GM, ANN, BOB))
    assert service.handle(gm, "sb new", {"name": "Nova", "radius": 5, **options}).ok
    assert service.handle(ann, "sb join", {"name": "Ann"}).ok
    assert service.handle(bob, "sb join", {"name": "Bob"}).ok
    assert service.handle(gm, "gm start", {}).ok
    return service


@pytest.fixture
def svc(store) -> GameService:
    return start(store)


def state_of(svc: GameService, channel: int = CHANNEL) -> dict:
    return svc.store.game_in_channel(GUILD, channel).state


@pytest.mark.parametrize(("french", "english"), [
    (("sb order", {"text": "gauche missile"}), ("sb order", {"text": "left missile"})),
    (("sb order", {"text": "Droite FREIN mine"}), ("sb orders", {"turn": "right", "brake": True, "mine": True})),
    (("sb orders", {"turn": "gauche", "missile": 1}), ("sb order", {"text": "left missile"})),
    (("sb order", {"text": "rien"}), ("sb order", {"text": "none"})),
])
def test_french_input_plays_the_same_turn_as_english(store, french: tuple, english: tuple) -> None:
    played = []
    for command, options in (french, english):
        channel = CHANNEL + len(played) + 1
        service = start(store, channel)
        ann, bob = (Context(user_id=ctx.user_id, user_name=ctx.user_name, guild_id=GUILD, channel_id=channel,
                            locale=ctx.locale) for ctx in (ANN, BOB))
        reply = service.handle(ann, command, options)
        assert reply.ok, reply.messages
        assert service.handle(ann, "sb ready", {}).ok and service.handle(bob, "sb ready", {}).ok  # resolves
        state = state_of(service, channel)
        assert state["state"]["turn"] == 1  # the turn resolved
        played.append(state["state"])
    assert played[0] == played[1]


def test_a_power_is_played_by_its_french_name(store) -> None:
    """`pouvoir bouclier` in the order language, `pouvoir:"super blindage"` as an option: the French
    names the guide gives, echoed in French."""
    service = start(store, powers=True)
    state = RULES.from_json(state_of(service))
    held = list(state.ships[0].powers)
    french = {"shield": "bouclier", "armour": "super blindage", "superturn": "super virage", "energy": "réserve d’énergie",
              "slip": "glissement latéral", "timejump": "saut temporel", "rearshot": "tir arrière", "turbo": "turbo",
              "recharge": "recharge"}
    reply = service.handle(ANN, "sb orders", {"power": french[held[0]]})
    assert reply.ok, said(reply)
    assert f"pouvoir {translate(f'sb.order.power.{held[0]}', 'fr')}" in said(reply)[0]


def test_the_sheet_reads_and_draws_french(store, drawn: list[str]) -> None:
    service = start(store, powers=True)
    assert service.handle(ANN, "sb order", {"text": "gauche missile"}).ok
    sheet = service.handle(ANN, "game sheet", {})
    lines = said(sheet)
    assert "Vos ordres de ce tour (vous seul les voyez) : gauche missile" in lines
    assert [line for line in lines if ENGLISH.search(line)] == []
    for word in ("Score", "Coups reçus", "Virages", "Freins", "Missiles", "Mines", "Pouvoirs"):
        assert word in drawn, word
    assert [text for text in drawn if DRAWN_ENGLISH.search(text)] == []
    english = service.handle(ANN_EN, "game sheet", {})
    assert "Your orders this turn (only you see them): left missile" in said(english, "en")


def test_the_status_reads_the_french_compass(svc: GameService) -> None:
    lines = said(svc.handle(ANN, "game status", {}))
    assert any(line.startswith("🚀 **Bob** K6 NO ·") for line in lines), lines
    assert any(line.startswith("🚀 **Bob** K6 NW ·") for line in said(svc.handle(ANN_EN, "game status", {}), "en"))


def test_the_history_tells_orders_in_the_readers_order_words(svc: GameService) -> None:
    assert svc.handle(ANN, "sb order", {"text": "gauche missile"}).ok
    assert svc.handle(ANN, "sb ready", {}).ok and svc.handle(BOB, "sb ready", {}).ok
    french = "\n".join(said(svc.handle(ANN, "game history", {})))
    english = "\n".join(said(svc.handle(ANN_EN, "game history", {}), "en"))
    assert "a donné les ordres `gauche missile`" in french and "gave the orders `left missile`" in english


def test_the_order_language_is_suggested_in_the_readers_words(svc: GameService) -> None:
    french = svc.complete(ANN, "sb order", "text", "")
    english = svc.complete(ANN_EN, "sb order", "text", "")
    assert "gauche missile" in french and "left missile" in english and "rien" in french
    assert all(not ENGLISH.search(text) for text in french), french
    assert svc.complete(ANN, "sb order", "text", "GAUCHE F")[0].startswith("gauche frein")


@pytest.mark.parametrize(("options", "said_fr"), [
    ({"text": "voler"},
     "Ordre illisible : attendu un jeton (gauche, droite, frein, missile, mine, pouvoir NOM, ou rien), trouvé `voler`."),
    ({"text": "pouvoir envol"},
     "Ordre illisible : attendu un pouvoir (énergie, turbo, super-virage, glissement, saut-temporel, bouclier, "
     "recharge, super-blindage, tir-arrière), trouvé `envol`."),
    ({"text": "gauche frein missile mine"}, "Trois jetons au plus par tour."),
    ({"text": "gauche gauche"}, "Vous ne pouvez pas jouer deux jetons du même type dans un tour."),
])
def test_a_french_refusal_says_it_in_french_and_changes_nothing(svc: GameService, options: dict,
                                                                said_fr: str) -> None:
    before = state_of(svc)
    reply = svc.handle(ANN, "sb order", options)
    assert not reply.ok
    assert said(reply)[0] == said_fr
    assert state_of(svc) == before
