"""`/game help` shows the channel's game first (issue 26 point 5): its commands, then the shared
ones, a turn driver's GM commands only for the games it drives; another game by name; paged with a
buttons to the previous and the next page, each page within one Discord message."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import translate
from bot.service import Context, GameService
from tests.support.help_pages import every_help_entry

GUILD, CHANNEL = 10, 140
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="en-US")


def shown(svc: GameService, ctx: Context, **options) -> list[str]:
    return [m.params["command"] for m in every_help_entry(svc, ctx, **options)]


def test_a_games_channel_shows_its_commands_first_then_the_shared_ones(sqlite_store) -> None:
    svc = GameService(sqlite_store)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    commands = shown(svc, GM)
    assert commands[0].startswith("/hx ") and "/game board" in commands and "/gm undo" in commands
    assert not any(c.startswith(("/sc ", "/sb ", "/ak ")) for c in commands)
    assert "/gm clock" in commands and "/gm draw" not in commands and "/gm deadline" not in commands
    other = shown(svc, GM, game="spacechess")
    assert other[0].startswith("/sc ") and "/gm draw" in other and "/gm clock" not in other
    assert not any(c.startswith("/hx ") for c in other)


def test_every_page_fits_a_message_and_the_last_names_the_other_games(sqlite_store) -> None:
    svc = GameService(sqlite_store)
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    reply = svc.handle(GM, "game help", {})
    pages = reply.messages[0].params["pages"]
    assert pages > 1 and [(b.label.key, b.options) for b in reply.buttons] == [
        ("button.page_next", {"game": "spacechess", "page": 2})]
    for page in range(1, pages + 1):
        shown_page = svc.handle(GM, "game help", {"page": page})
        text = "\n".join(translate(m.key, "fr", m.params) for m in shown_page.messages)
        assert len(text) <= 2000, (page, len(text))
        assert [b.options["page"] for b in shown_page.buttons] == [n for n in (page - 1, page + 1) if 1 <= n <= pages]
    last = translate(shown_page.messages[-1].key, "fr", shown_page.messages[-1].params)
    assert last.startswith("Les autres jeux : `/partie aide jeu:…` avec ") and "hexarena" in last, last


def test_an_unknown_game_is_refused_naming_the_known_ones(sqlite_store) -> None:
    svc = GameService(sqlite_store)
    reply = svc.handle(replace(GM, locale="fr"), "game help", {"game": "chess"})
    assert not reply.ok and reply.messages[0].key == "error.unknown_game"
