"""`/gm web`: the game's secret link, given to GMs only, renewed (the old one dies) and revoked;
said plainly when the companion is off. Links are random, looked up by digest, compared in constant time."""

from __future__ import annotations

from bot.i18n import translate
from bot.service import GameService, Visibility
from bot.store import GameRecord
from bot.store.web_links import game_of_token, issue_link, link_of, revoke_link
from tests.bot.web.conftest import BASE, EVE, GM


def said(reply, language: str = "en") -> str:
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages)


def test_the_link_is_private_starts_with_the_base_url_and_opens_the_game(svc: GameService, game: GameRecord,
                                                                        links: str) -> None:
    reply = svc.handle(GM, "gm web", {})
    assert reply.ok and reply.visibility is Visibility.PRIVATE
    token = link_of(svc.store, game.id)
    assert f"{BASE}/g/{token}" in said(reply) and f"{BASE}/g/{token}" in said(reply, "fr")
    assert len(token) == 22 and game_of_token(svc.store, token) == game.id
    again = svc.handle(GM, "gm web", {})  # asked again: the same link, not a new one
    assert link_of(svc.store, game.id) == token and f"/g/{token}" in said(again)
    assert svc.store.get_game(game.id).version == game.version  # the game itself is untouched


def test_a_new_link_kills_the_old_one_and_off_closes_the_page(svc: GameService, game: GameRecord,
                                                             links: str) -> None:
    svc.handle(GM, "gm web", {})
    old = link_of(svc.store, game.id)
    renewed = svc.handle(GM, "gm web", {"action": "new"})
    new = link_of(svc.store, game.id)
    assert renewed.messages[0].key == "gm.web.renewed" and new != old
    assert game_of_token(svc.store, old) is None and game_of_token(svc.store, new) == game.id
    closed = svc.handle(GM, "gm web", {"action": "fermer"})  # a choice in French words too
    assert closed.messages[0].key == "gm.web.off"
    assert game_of_token(svc.store, new) is None and link_of(svc.store, game.id) is None
    assert svc.handle(GM, "gm web", {"action": "off"}).messages[0].key == "gm.web.none"


def test_only_gms_get_the_link(svc: GameService, game: GameRecord, links: str) -> None:
    reply = svc.handle(EVE, "gm web", {})
    assert not reply.ok and reply.messages[0].key == "error.gm_only"
    assert link_of(svc.store, game.id) is None


def test_with_the_companion_off_the_gm_is_told_and_no_link_is_made(svc: GameService, game: GameRecord) -> None:
    reply = svc.handle(GM, "gm web", {})
    assert not reply.ok and reply.messages[0].key == "error.web_disabled"
    assert "[web]" in said(reply) and "[web]" in said(reply, "fr")
    assert link_of(svc.store, game.id) is None


def test_a_bad_action_is_refused_precisely(svc: GameService, game: GameRecord, links: str) -> None:
    reply = svc.handle(GM, "gm web", {"action": "burn"})
    assert not reply.ok and reply.messages[0].key == "error.option_bad_choice"
    assert link_of(svc.store, game.id) is None


def test_tokens_are_random_and_only_the_exact_token_opens(svc: GameService, game: GameRecord) -> None:
    tokens = {issue_link(svc.store, game.id, 1) for _ in range(20)}
    assert len(tokens) == 20
    last = link_of(svc.store, game.id)
    for near in (last[:-1] + ("A" if last[-1] != "A" else "B"), last.upper() if last != last.upper() else last.lower(),
                 last[:-1], "", last + "x"):
        assert game_of_token(svc.store, near) is None
    assert game_of_token(svc.store, last) == game.id
    assert revoke_link(svc.store, game.id) and not revoke_link(svc.store, game.id)
