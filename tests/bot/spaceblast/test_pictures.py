"""SpaceBlast's still arena tells the last turn (issue 27): the turn's post and `/game board` draw each
ship's move as an arrow and the turn's marks, and say them under the arena in the channel's
language; the orders given since stay sealed, never drawn."""

from __future__ import annotations

from unittest.mock import patch

from bot.i18n import alt_text
from bot.service import GameService
from renders.common import recording_text
from tests.bot.spaceblast.test_play import ANN, BOB, CID, svc  # noqa: F401  (the fixture)


def caption(drawn: list[str]) -> str:
    """The caption's lines under the arena (drawn last on it), as one text."""
    start = next(index for index, text in enumerate(drawn) if text.startswith("Dernier tour"))
    return " ".join(drawn[start:])


def test_the_turn_post_and_game_board_draw_and_tell_the_last_turn_in_french(svc: GameService) -> None:  # noqa: F811
    svc.handle(ANN, "sb orders", {"turn": "left", "missile": 1})
    svc.handle(BOB, "sb order", {"text": "brake mine"})
    svc.handle(ANN, "sb ready", {})
    svc.handle(BOB, "sb ready", {})
    with recording_text() as drawn, patch("renders.spaceblast.animation.render_turn_gif", return_value=b"GIF"):
        posted = svc.handle(CID, "sb ready", {})  # the arena's words alone: the animation's are not drawn
    arena = posted.files[0]
    assert arena.filename == "arena.png"
    told = caption(drawn)
    assert "se déplace" in told and "Bob pose une mine en" in told and "Ann tourne" in told
    assert "Dernier tour" in alt_text(arena.description, "fr")  # the alt text says it too
    assert svc.handle(ANN, "sb order", {"text": "right mine"}).ok  # the next turn's orders: sealed
    with recording_text() as asked:
        board = svc.handle(BOB, "game board", {})
    assert board.files[0].data == arena.data  # the history's last turn, as its post drew it
    assert caption(asked) == told and "droite" not in " ".join(asked)
    assert "Dernier tour" in alt_text(board.files[0].description, "fr")
