"""Alt text on every image (issue 25 point 6): each picture a game posts or answers with says what it
shows — the game, its turn, what comes next, who is where — in the language of its text, within
Discord's 1,024 characters for an attachment's ``description``.

Every kind of picture of every game is walked through the service's replies, as the console shows
them: each game's demo, then the commands that draw what the demo does not (sheets, the recap). The
kinds are: Space Chess's board (the turn posts' too), close-up, reach, line of sight, move preview,
character sheet, recap charts and replay GIF; SpaceBlast's arena, turn GIF and ship cards; Arkeon's
and HexArena's boards (their sheets are boards). The web companion's pictures take the same
descriptions (tests/bot/web); the outbox's posts draw theirs as they are sent (`Drawing.render`,
tests/bot/draws/test_post_language.py).
"""

from __future__ import annotations

import io
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.console import Console
from bot.games import is_picture
from bot.i18n import ALT_TEXT_LIMIT, alt_text
from bot.service import Attachment, Context, Message, Reply
from tests.bot.every_game import leaks
from tests.bot.every_game.leaks import shipped_demos

#: what each game's demo leaves undrawn, asked for after it (the console's lines)
MORE = {
    "spacechess": ["as ann /game sheet", "as gm /game sheet character:Dee"],
    "spaceblast": ["as ann /game sheet", "/game recap"],
    "arkeon": ["as ann /game sheet", "/game recap"],
    "hexarena": ["/game recap"],
}
#: every kind of picture of each game (its file's name, a character's or ship's left out)
KINDS = {
    "spacechess": {"board.png", "closeup.png", "reach.png", "line.png", "move-preview.png", "sheet.png",
                   "recap.png", "replay.gif"},
    "spaceblast": {"arena.png", "resolution.gif", "ship.png"},
    "arkeon": {"arkeon.png"},
    "hexarena": {"hexarena.png"},
}

#: the kinds that are no plain board of the game (a close-up, a GIF, charts, a sheet)
SHOWS = {"closeup.png", "reach.png", "line.png", "move-preview.png", "sheet.png", "recap.png", "replay.gif",
         "resolution.gif", "ship.png"}


def kind_of(file: Attachment) -> str:
    """``sheet-Ann.png`` → ``sheet.png``: the picture's kind, whoever it is of."""
    return re.sub(r"^(sheet|ship)-[^.]+", r"\1", file.filename)


@dataclass
class Walked:
    """What a game's walk showed: every file of the replies, the lines played, and the alt text of
    each picture the web companion draws of the game as it ended (`bot.web.pictures.draw`), by kind."""

    files: list[Attachment]
    lines: list[str]
    web: dict[str, str]


def walked(game: str, language: str, monkeypatch: pytest.MonkeyPatch) -> Walked:
    """`game`'s demo played in the console in `language`, then `MORE` of it."""
    from bot import demo
    from bot.web.pictures import draw, stories_of

    shown: list[Attachment] = []
    web: dict[str, str] = {}
    contexts: list[Context] = []
    show, run_lines, lines = Console.show, Console.run_lines, demo.script_lines

    def showing(self: Console, ctx: Context, reply: Reply) -> None:
        shown.extend(reply.files)
        contexts.append(ctx)
        show(self, ctx, reply)

    def running(self: Console, played: list[str]) -> int:
        refused = run_lines(self, played)
        ended = self.service.store.game_in_channel(contexts[-1].guild_id, contexts[-1].channel_id)
        for what in ("board", *stories_of(ended.kind)):
            picture = draw(self.service, ended, language, what)
            assert picture is not None, what
            web[what] = picture.alt
        return refused

    played = [*lines(game), *MORE[game]]
    monkeypatch.setattr(Console, "show", showing)
    monkeypatch.setattr(Console, "run_lines", running)
    monkeypatch.setattr(demo, "script_lines", lambda _game: played)
    with tempfile.TemporaryDirectory(prefix="alt-") as folder:
        assert demo.run_demo(Path(folder), language, io.StringIO(), game) == 0, "every line played as written"
    return Walked(shown, played, web)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", shipped_demos())
def test_every_picture_says_what_it_shows(game: str, language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    walk = walked(game, language, monkeypatch)
    pictures = [f for f in walk.files if is_picture(f)]
    assert {kind_of(p) for p in pictures} >= KINDS[game], "every kind of picture of the game was walked"
    for picture in pictures:
        assert picture.description is not None, (game, picture.filename)
        if kind_of(picture) in SHOWS:  # no plain board: its alt text says first what it is
            said = picture.description
            assert said.key != "alt.image" or said.params["shows"], (game, picture.filename, said)
    texts = {**{f"{n} {p.filename}": alt_text(p.description, language) for n, p in enumerate(pictures)},
             **{f"web {what}": alt for what, alt in walk.web.items()}}
    for where, text in texts.items():
        assert text and len(text) <= ALT_TEXT_LIMIT, (game, where, text)
        assert "{" not in text and "**" not in text, text  # every placeholder filled, no markup read out
    word = {"en": "turn", "fr": "tour"}[language]
    assert any(word in text for text in texts.values()), list(texts.values())[:3]
    assert walk.web["board"] != "" and walk.web["board"].count(" ") > 3, "the web's board is described, not named"
    if not leaks.missing_lists():  # the word lists (wfrench, wamerican): tests/bot/every_game/leaks.py
        names = leaks.typed_names(walk.lines)
        foreign = {where: dict(found) for where, text in texts.items()
                   if (found := leaks.leaked_words(text, language, names))}
        assert not foreign, f"words of the other language in the {language} alt text: {foreign}"


def test_a_long_description_is_cut_at_a_word_within_the_limit() -> None:
    text = alt_text(Message("alt.next", {"next": "word " * 400}), "en")
    assert len(text) <= ALT_TEXT_LIMIT and text.endswith("…") and not text.endswith(" …")


def test_no_space_is_left_before_a_full_stop() -> None:
    """A status line ending on an empty placeholder ("avancées : aucune {move}") read in a sentence."""
    assert alt_text("réserve : aucune . Rouge , fin .", "fr") == "réserve : aucune. Rouge, fin."
