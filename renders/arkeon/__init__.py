"""Arkeon images: the board with its pieces, their attack marks, the reserves and the key (board.py)."""

from renders.arkeon.board import BoardLayout, layout_for, render_board

__all__ = ["BoardLayout", "layout_for", "render_board"]
