"""Issue 15, HexArena's `/game history` (reconstructed rules): each turn reads as sentences naming
its author and its ships ("**Ann** moved Red admiral G10 → G11"), in English and in French, never
the order text or JSON — the computer's turns too, draw offers and resignations, Alpha's and
Omega's turns of several actions, and an undone turn told from its order."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import pytest

from bot.console import Console
from bot.games import presenter_for
from bot.i18n import LANGUAGES, translate
from bot.service import Context, GameService, Reply
from bot.service.history import entry_words
from bot.store.repo import LogRecord, Store
from engine import registry

SCRIPT = Path(__file__).with_name("console_game.txt")
GUILD, CHANNEL = 10, 120
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True)
ANN = Context(user_id=2, user_name="ann", guild_id=GUILD, channel_id=CHANNEL)
BOB = Context(user_id=3, user_name="bob", guild_id=GUILD, channel_id=CHANNEL)
#: what must never reach a reader: an order's text (``move G1 H1``), a facing as the engine writes
#: it in French, JSON, a placeholder, a catalog key, a ship's id
RAW = re.compile(r"\b(?:move|rotate|fire|ram|board|leave|recycle) [A-M]\d|[{}]|\"|"
                 r"\b(?:history|event|hx|word|game)\.[a-z_]+|\b(?:red|blue)_[a-z]+\d|\bNone\b|`")


#: a history line's number and time, before what it says
PREFIX = re.compile(r"^\S+ · <t:-?\d+:R> · ")


def lines(reply: Reply, language: str) -> list[str]:
    """Each history line in `language` without its number and time, checked free of anything raw."""
    said = [PREFIX.sub("", translate(m.key, language, m.params)) for m in reply.messages[1:]]
    for line in said:
        assert not RAW.search(line), line
    return said


def history(svc: GameService, ctx: Context, language: str) -> list[str]:
    """The whole history, every page, newest first."""
    first = svc.handle(ctx, "game history", {})
    pages = first.messages[0].params["pages"]
    return [line for page in range(1, pages + 1)
            for line in lines(svc.handle(ctx, "game history", {"page": page}), language)]


@pytest.fixture
def console_game(sqlite_store: Store, tmp_path: Path) -> GameService:
    """tests/bot/hexarena/console_game.txt: Ann against the easy computer, to Ann's win; every verb
    but ``rotate`` by both sides somewhere in it, ships destroyed, the debris recycled."""
    service = GameService(sqlite_store, seed_source=lambda: 3)
    console = Console(service, out_dir=tmp_path, language="en", stream=io.StringIO())
    assert console.run_lines(SCRIPT.read_text(encoding="utf-8").splitlines()) == 0
    return service


def test_a_played_game_reads_as_sentences_in_both_languages(console_game: GameService) -> None:
    ann = Context(user_id=2, user_name="ann", guild_id=1, channel_id=_channel("arena"))
    said = {language: "\n".join(history(console_game, ann, language)) for language in LANGUAGES}
    expected = {
        "en": ["**Ann** turned Red fighter 1 on G2 from E to NE.",
               "**Ann** moved Red patrol 1 F1 → F12 (teleport).",
               "**Blue** moved Blue patrol 2 H12 → A6 (teleport).",  # the computer, named by its side
               "**Ann** took Red admiral aboard Red cargo 3 on H2.",
               "**Ann** took Red admiral out of Red cargo 3 on H2 to H3.",
               "🔫 **Ann** fired with Red admiral from G4 towards E and hit Blue fighter 2. 💥 Blue fighter 2 was "
               "destroyed on G11 by Red admiral; a debris takes its cell (7 left in the reserve).",
               "💢 **Blue** rammed Red cargo 1 on E1 with Blue patrol 1 from D1.",
               "**Blue** turned Blue fighter 1 on G12 from W to NE.",
               "♻️ **Ann** recycled the debris on G11 with Red admiral, now on G10 (6 in the reserve).",
               "**Ann** moved Red admiral G10 → G11. 🏁 Game over — **Red** wins"],
        "fr": ["**Ann** a tourné Chasseur rouge 1 en G2 de E vers NE.",
               "**Bleu** a déplacé Patrouille bleue 2 de H12 à A6 (téléportation).",
               "**Ann** a fait monter Amiral rouge à bord de Cargo rouge 3 en H2.",
               "**Ann** a fait descendre Amiral rouge de Cargo rouge 3 en H2 vers H3.",
               "🔫 **Ann** a tiré avec Amiral rouge depuis G4 vers E et touché Chasseur bleu 2. 💥 Chasseur bleu 2 "
               "a été détruit en G11 par Amiral rouge ; un débris prend sa case (7 restent dans la réserve).",
               "💢 **Bleu** a éperonné Cargo rouge 1 en E1 avec Patrouille bleue 1 depuis D1. 💥 Cargo rouge 1 a été "
               "détruit",
               "**Bleu** a tourné Chasseur bleu 1 en G12 de O vers NE.",  # west is ouest
               "♻️ **Ann** a recyclé le débris en G11 avec Amiral rouge, désormais en G10",
               "**Ann** a déplacé Amiral rouge de G10 à G11. 🏁 Fin de partie — **Rouge** gagne"],
    }
    for language, sentences in expected.items():
        for sentence in sentences:
            assert sentence in said[language], (language, sentence)


def _channel(name: str) -> int:
    from bot.console import stable_id

    return stable_id("channel", name)


@pytest.fixture
def svc(sqlite_store: Store) -> GameService:
    return GameService(sqlite_store, seed_source=lambda: 5)


def started(svc: GameService, **new: object) -> GameService:
    assert svc.handle(GM, "hx new", {"name": "Arena", **new}).ok
    assert svc.handle(ANN, "hx join", {"name": "Ann"}).ok
    assert svc.handle(BOB, "hx join", {"name": "Bob", "side": "blue"}).ok
    assert svc.handle(GM, "gm start", {}).ok
    return svc


def test_draw_offers_and_a_resignation_name_their_players(svc: GameService) -> None:
    started(svc)
    assert svc.handle(ANN, "hx rotate", {"cell": "G2", "direction": "ne"}).ok
    assert svc.handle(BOB, "game offer-draw", {}).ok
    assert svc.handle(ANN, "game decline-draw", {}).ok
    ask = svc.handle(BOB, "hx resign", {})
    assert svc.handle(BOB, "hx resign", dict(ask.buttons[0].options)).ok
    assert history(svc, ANN, "en")[:4] == ["**Bob** resigned.", "**Ann** declined the draw.",
                                           "**Bob** offered a draw.", "**Ann** turned Red fighter 1 on G2 from E to NE."]
    assert history(svc, ANN, "fr")[:4] == ["**Bob** a abandonné.", "**Ann** a refusé la nulle.",
                                           "**Bob** a proposé la nulle.",
                                           "**Ann** a tourné Chasseur rouge 1 en G2 de E vers NE."]


def test_an_undone_turn_is_told_from_its_order(svc: GameService) -> None:
    started(svc)
    assert svc.handle(ANN, "hx order", {"text": "rotate G2 NE"}).ok
    assert svc.handle(BOB, "hx order", {"text": "move G11 G5"}).ok
    preview = svc.handle(GM, "gm undo", {"n": 1})  # still played: told from its events
    assert translate(preview.messages[1].key, "en", preview.messages[1].params) == (
        "• #6 **Bob** moved Blue fighter 2 G11 → G5.")
    assert svc.handle(GM, "gm undo", dict(preview.buttons[0].options)).ok
    undone = {language: history(svc, ANN, language) for language in LANGUAGES}
    assert "~~**Bob** moved the ship on G11 to G5.~~ (undone)" in undone["en"][1]
    assert "**Bob** a déplacé le vaisseau en G11 vers G5." in undone["fr"][1]
    assert "**Ann** turned Red fighter 1 on G2 from E to NE." in undone["en"][2]


@pytest.mark.parametrize(("variant", "text", "spent"), [
    ("alpha", "rotate G2 NE; move G3 G4", None),
    ("omega", "rotate G2 NE; move G3 G4", True),
])
def test_a_turn_of_several_actions_says_each_and_omegas_points(svc: GameService, variant: str, text: str,
                                                                 spent: bool | None) -> None:
    started(svc, variant=variant)
    assert svc.handle(ANN, "hx order", {"text": text}).ok
    latest = {language: history(svc, ANN, language)[0] for language in LANGUAGES}
    assert "**Ann** turned Red fighter 1 on G2 from E to NE. **Ann** moved Red fighter 2 G3 → G4." in latest["en"]
    assert "**Ann** a tourné Chasseur rouge 1 en G2 de E vers NE. **Ann** a déplacé" in latest["fr"]
    assert ("Action points spent:" in latest["en"]) is bool(spent)
    assert ("Points d’action dépensés" in latest["fr"]) is bool(spent)


def test_every_hexarena_input_reads_without_its_codes() -> None:
    """Each input kind as a log entry alone (no events: an undone entry's case), the computer's
    side and a clock run out named in words."""
    rules, presenter = registry.get("hexarena"), presenter_for("hexarena")
    when = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    orders = ["move G1 H1", "rotate G2 W", "fire G1", "ram F1 E", "board G1 H2", "leave H2 H3", "recycle G10 G11",
              "move G3 G4; rotate G2 NE"]
    entries = [LogRecord(1, 1, "order", "blue", None, {"text": text}, when) for text in orders]
    entries += [LogRecord(1, 1, kind, "blue", None, {}, when) for kind in sorted(rules.input_kinds - {"order"})]
    entries.append(LogRecord(1, 1, "timeout", None, None, {"actor": "blue"}, when))
    for entry in entries:
        message = entry_words(presenter, rules, entry)
        assert message.key not in ("history.input", "history.order"), entry
        for language in LANGUAGES:
            text = translate(message.key, language, message.params)
            assert not RAW.search(text) and "blue" not in text, (entry, text)
            assert ("**Blue**" in text or "**Bleu**" in text or "bot" in text), (entry, text)
    said = translate(*_words(presenter, rules, entries[1], "fr"))
    assert said == "**Bleu** a tourné le vaisseau en G2 vers O."


def _words(presenter, rules, entry, language):  # noqa: ANN001, ANN202 - a test's shorthand
    message = entry_words(presenter, rules, entry)
    return message.key, language, message.params
