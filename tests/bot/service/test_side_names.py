"""Refusals of an unknown name offer the closest in the reader's words (issue 26, point 7): a side of
HexArena or Arkeon is Bleu to a French reader and Blue to an English one, whichever language typed it
— never the engine's ``blue`` — and a side typed in the reader's words is found."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.i18n import translate
from bot.service import Context, GameService, Reply

GM = Context(user_id=1, user_name="gm", guild_id=10, channel_id=160, manage_server=True, locale="fr")
ANN = Context(user_id=2, user_name="ann", guild_id=10, channel_id=160, locale="fr")
BOB = Context(user_id=3, user_name="bob", guild_id=10, channel_id=160, locale="en-US")


def said(reply: Reply, language: str) -> str:
    return translate(reply.messages[0].key, language, reply.messages[0].params)


@pytest.fixture(params=["hx", "ak"])
def svc(request: pytest.FixtureRequest, sqlite_store) -> GameService:
    service = GameService(sqlite_store)
    group = request.param
    assert service.handle(GM, f"{group} new", {"name": "Duel"}).ok
    assert service.handle(ANN, f"{group} join", {"name": "Ann"}).ok
    assert service.handle(BOB, f"{group} join", {"name": "Bob"}).ok
    assert service.handle(GM, "gm start", {}).ok
    return service


@pytest.mark.parametrize("typed", ["bleux", "blu", "Blues"])
def test_a_side_mistyped_is_offered_in_the_readers_words(svc: GameService, typed: str) -> None:
    game = svc.store.game_in_channel(10, 160)
    french = svc.handle(ANN, "game sheet", {"character": typed})
    assert said(french, "fr") == f"Personnage inconnu : `{typed}`. Vouliez-vous dire **Bleu** ?"
    english = svc.handle(BOB, "game sheet", {"character": typed})
    assert said(english, "en").endswith("Did you mean **Blue**?"), said(english, "en")
    assert svc.store.game_in_channel(10, 160).version == game.version


def test_a_players_name_is_still_offered_as_it_is(svc: GameService) -> None:
    assert said(svc.handle(BOB, "game sheet", {"character": "Anne"}), "en").endswith("Did you mean **Ann**?")


@pytest.mark.parametrize("typed", ["Bleu", "blue", "BLUE"])
def test_a_side_in_either_language_is_found(svc: GameService, typed: str) -> None:
    by_name = svc.handle(replace(ANN, user_id=9), "game sheet", {"character": typed})
    assert by_name.ok, by_name.messages
    assert by_name.messages == svc.handle(replace(ANN, user_id=9), "game sheet", {"character": "blue"}).messages
