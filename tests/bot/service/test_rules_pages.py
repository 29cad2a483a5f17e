"""`/game rules` posts the rules themselves (issue 26, point 5): in short, then the rules document the
game ships beside its words (`rules.<language>.md`, package data) in the reader's language, a page per Discord message, cut between paragraphs, with
buttons to the previous and the next page — no repository path a Discord player cannot open."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games import games
from bot.i18n import translate
from bot.service import Context, GameService, Reply
from bot.service.rulebook import PAGE_CHARS, pages_of, rules_path

GUILD, CHANNEL = 10, 150
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="en-US")
MESSAGE = 2000  # characters a Discord message holds


def read(reply: Reply, language: str) -> str:
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages)


def every_page(svc: GameService, ctx: Context, language: str, **options) -> list[str]:
    """Every page as its reader reads it, from the first, following the next page's button."""
    reply = svc.handle(ctx, "game rules", options)
    pages = [read(reply, language)]
    while (nxt := [b for b in reply.buttons if b.label.key == "button.page_next"]):
        reply = svc.handle(ctx, nxt[0].command, dict(nxt[0].options))
        assert [b.label.key for b in reply.buttons][0] == "button.page_previous"
        pages.append(read(reply, language))
    assert reply.messages[0].params["page"] == reply.messages[0].params["pages"] == len(pages)
    return pages


@pytest.mark.parametrize("language,locale", [("fr", "fr"), ("en", "en-US")])
def test_the_channels_rules_come_whole_in_the_readers_language_a_message_a_page(
        sqlite_store, language: str, locale: str) -> None:
    svc = GameService(sqlite_store)
    assert svc.handle(GM, "hx new", {"name": "Arena"}).ok
    first = svc.handle(replace(GM, locale=locale), "game rules", {})
    assert [m.key for m in first.messages] == ["game.rules.header", "rules.hexarena"]
    assert [b.label.key for b in first.buttons] == ["button.page_next"]
    pages = every_page(svc, replace(GM, locale=locale), language)
    assert len(pages) > 3 and all(len(page) <= MESSAGE for page in pages), [len(p) for p in pages]
    document = rules_path("hexarena", language).read_text(encoding="utf-8")
    shown = "\n".join(pages[1:])
    for paragraph in document.split("\n\n")[2:]:  # the title on, but the link to the other language
        whole = paragraph.strip() if len(paragraph.strip()) <= PAGE_CHARS else paragraph.strip().split("\n")[0]
        assert whole in shown, paragraph[:80]
    assert ".md" not in shown and "HA-12" in shown
    lines = document.split("\n")
    for page in pages[1:]:  # each cut between paragraphs (a paragraph longer than a page: between lines)
        body = page.split("\n", 1)[1]
        assert body.split("\n")[0] in lines, body[:80]
        assert all(line in lines or not line for line in body.split("\n")), body[:80]


def test_every_game_has_its_rules_in_both_languages_within_a_message_a_page(sqlite_store) -> None:
    svc = GameService(sqlite_store)
    served = [entry.kind for entry in games() if rules_path(entry.kind, "en").exists()]
    assert {"arkeon", "hexarena", "spaceblast", "spacechess"} <= set(served)
    for kind in served:
        for language, locale in (("fr", "fr"), ("en", "en-US")):
            pages = every_page(svc, replace(GM, locale=locale), language, game=kind)
            assert len(pages) > 1 and max(map(len, pages)) <= MESSAGE, (kind, language)


def test_a_paragraph_longer_than_a_page_is_cut_between_its_lines() -> None:
    table = "\n".join(f"| row {n} | {'x' * 30} |" for n in range(40))
    pages = pages_of(["Intro.", table, "End."], 400)
    assert all(len(page) <= 400 for page in pages) and pages[0].startswith("Intro.\n\n| row 0 ")
    assert "\n".join(pages).replace("\n\n", "\n") == "\n".join(["Intro.", table, "End."])


def test_a_page_past_the_last_shows_the_last_and_an_unknown_game_is_refused(sqlite_store) -> None:
    svc = GameService(sqlite_store)
    last = svc.handle(GM, "game rules", {"game": "arkeon", "page": 999})
    header = last.messages[0].params
    assert header["page"] == header["pages"] and [b.label.key for b in last.buttons] == ["button.page_previous"]
    assert [m.key for m in svc.handle(GM, "game rules", {"game": "chess"}).messages] == ["error.unknown_game"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_game_ships_its_rules_as_package_data(language: str) -> None:
    """An installed bot (`pip install .`, no checkout) has the documents too: they live in the game's
    package folder, under a pattern of the package data the wheel takes."""
    import fnmatch
    import tomllib
    from pathlib import Path

    from bot.games import GAMES, words_folder
    from bot.service.rulebook import rules_path

    project = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["*"]
    for entry in GAMES:  # the games the bot ships (the test games have their summary alone)
        path = rules_path(entry.kind, language)
        assert path.is_file() and path.parent == words_folder(entry), path
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path.name
        assert "docs/rules" not in translate(f"rules.{entry.kind}", language)  # no path a player cannot open
