"""Space Chess images: the board (board.py) and the character sheet card (sheet.py)."""

from renders.spacechess.board import Overlay, render_board
from renders.spacechess.sheet import render_sheet

__all__ = ["Overlay", "render_board", "render_sheet"]
