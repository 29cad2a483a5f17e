"""SpaceBlast images: the board (board.py), a ship's card (sheet.py) and the turn replay GIF (animation.py)."""

from renders.spaceblast.animation import render_turn_gif
from renders.spaceblast.board import BoardLayout, layout_for, render_board
from renders.spaceblast.sheet import render_sheet

__all__ = ["BoardLayout", "layout_for", "render_board", "render_sheet", "render_turn_gif"]
