"""Names typed in options (issue 24, point 3): a character, a ship or a player is found without
case or accents, and a name nobody has is refused with the one it most likely meant."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, translate
from bot.service import GameService
from engine.core.names import closest_name, name_key
from tests.bot.service.test_spacechess_commands import ANN, GM, lobby, ok


@pytest.fixture
def svc(sqlite_store):
    return GameService(sqlite_store, seed_source=lambda: 99)


def started(svc: GameService) -> GameService:
    lobby(svc)
    ok(svc.handle(GM, "gm start", {}))
    return svc


def texts(reply) -> dict[str, str]:
    assert not reply.ok, reply.messages
    [message] = reply.messages
    return {language: translate(message.key, language, message.params) for language in LANGUAGES}


def test_names_compare_without_case_or_accents_and_the_closest_is_offered():
    assert name_key("Zoé") == name_key("ZOE") == name_key("zoe")
    assert closest_name("Ursaa", ["Ann", "Ursa", "Bob"]) == "Ursa"
    assert closest_name("ursá", ["Ann", "Ursa"]) == "Ursa"
    assert closest_name("Xavier", ["Ann", "Ursa"]) is None


def test_a_character_is_found_however_it_is_typed(svc):
    started(svc)
    for typed in ("dee", "DEE", "Dée"):
        assert svc.handle(ANN, "sc reach", {"character": typed}).ok, typed
        assert svc.handle(ANN, "game sheet", {"character": typed}).ok, typed


def test_an_unknown_name_is_refused_with_the_name_it_most_likely_meant(svc):
    started(svc)
    version = svc.store.game_in_channel(GM.guild_id, GM.channel_id).version
    for path, options in (("sc reach", {"character": "Deee"}), ("game sheet", {"character": "Deee"}),
                          ("sc shoot", {"target": "Deee"}), ("sc line", {"shooter": "Ann", "target": "Deee"}),
                          ("sc order", {"text": "shoot Deee"})):
        shown = texts(svc.handle(ANN, path, options))
        assert "Vouliez-vous dire **Dee** ?" in shown["fr"] and "`Deee`" in shown["fr"], (path, shown["fr"])
        assert "Did you mean **Dee**?" in shown["en"], (path, shown["en"])
    assert svc.store.game_in_channel(GM.guild_id, GM.channel_id).version == version  # nothing applied
    far = texts(svc.handle(ANN, "sc reach", {"character": "Xavier"}))
    assert "Vouliez-vous" not in far["fr"] and "`Xavier`" in far["fr"]


def test_a_gm_hands_a_character_named_without_its_accents(svc):
    started(svc)
    shown = texts(svc.handle(GM, "gm replace", {"character": "Bobb", "user": 99}))
    assert "**Bob**" in shown["en"], shown["en"]
    assert svc.handle(GM, "gm replace", {"character": "BÖB", "user": 99}).ok


def test_suggestions_start_with_what_was_typed_without_case_or_accents(svc, monkeypatch):
    from bot.service import commands, suggest

    monkeypatch.setitem(commands.COMPLETERS, ("sc shoot", "target"), lambda *_: ["Zoé", "Ann", "Zoltan"])
    assert svc.complete(ANN, "sc shoot", "target", "zoe") == ["Zoé"]
    assert svc.complete(ANN, "sc shoot", "target", "ZO") == ["Zoé", "Zoltan"]
    monkeypatch.setattr(suggest, "legal_orders_here", lambda *_: iter(["Zoé", "Ann"]))
    assert suggest.suggest(svc, ANN, "spacechess", "zoe", lambda order: order) == ["Zoé"]
