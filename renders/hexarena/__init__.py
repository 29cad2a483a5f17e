"""HexArena images: the arena with its bases, ships, debris, graveyards and key (board.py)."""

from renders.hexarena.board import BoardLayout, layout_for, render_board

__all__ = ["BoardLayout", "layout_for", "render_board"]
