"""Alt text on every image (issue 25 point 6): each picture a game's demo posts or answers with says
what it shows — the game, its turn, what comes next, who is where — in the language of its text,
within Discord's 1,024 characters for an attachment's ``description``."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest

from bot.console import Console
from bot.games import is_picture
from bot.i18n import ALT_TEXT_LIMIT, alt_text
from bot.service import Attachment, Message, Reply
from tests.bot.every_game.leaks import shipped_demos


def played_files(game: str, language: str, monkeypatch: pytest.MonkeyPatch) -> list[Attachment]:
    """Every file the console showed while playing `game`'s demo in `language`."""
    from bot.demo import run_demo

    shown: list[Attachment] = []
    original = Console.show

    def show(self: Console, ctx, reply: Reply) -> None:
        shown.extend(reply.files)
        original(self, ctx, reply)

    monkeypatch.setattr(Console, "show", show)
    with tempfile.TemporaryDirectory(prefix="alt-") as folder:
        run_demo(Path(folder), language, io.StringIO(), game)
    return shown


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", shipped_demos())
def test_every_demo_picture_says_what_it_shows(game: str, language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pictures = [f for f in played_files(game, language, monkeypatch) if is_picture(f)]
    assert pictures, game
    for picture in pictures:
        assert picture.description is not None, (game, picture.filename)
        text = alt_text(picture.description, language)
        assert text and len(text) <= ALT_TEXT_LIMIT, (game, picture.filename, text)
        assert "{" not in text and "**" not in text, text  # every placeholder filled, no markup read out
    turns = [alt_text(p.description, language) for p in pictures]
    word = {"en": "turn", "fr": "tour"}[language]
    assert any(word in text for text in turns), turns[:3]


def test_a_long_description_is_cut_at_a_word_within_the_limit() -> None:
    text = alt_text(Message("alt.next", {"next": "word " * 400}), "en")
    assert len(text) <= ALT_TEXT_LIMIT and text.endswith("…") and not text.endswith(" …")
