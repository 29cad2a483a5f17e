"""Space Chess images: the board (board.py), its close-ups (closeup.py), the character sheet card
(sheet.py) and the end-of-game recap (recap.py)."""

from renders.spacechess.board import Caption, Overlay, render_board
from renders.spacechess.closeup import render_closeup
from renders.spacechess.sheet import render_sheet

__all__ = ["Caption", "Overlay", "render_board", "render_closeup", "render_sheet"]
