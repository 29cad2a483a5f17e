"""A close-up of part of the Space Chess board: a few cells drawn large, for phones and previews.

A whole 24x44 board shown on a phone is a column of tiny squares; a player wants the part around
their character, or the path a move is about to take, big enough to read. The close-up is the
full board's own drawing (same tokens, overlays, pickups: no second renderer to keep in step),
cropped to a window of cells and scaled up, with its rulers and caption drawn again at full
sharpness around it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from engine.core.squaregrid import Cell, format_cell
from engine.spacechess.maps import GameMap
from renders import common as c
from renders.spacechess.board import (
    CELL,
    RULE_W,
    RULER_H,
    Caption,
    Overlay,
    _cell,
    _draw_caption,
    board_image,
)

AROUND_CELLS = (11, 9)  # the window around one character: columns, rows
PREVIEW_CELLS = (5, 5)  # the smallest window of a move preview
CLOSEUP_WIDTH = 900  # the scaled window's width in pixels (at most MAX_SCALE times the cells)
PREVIEW_WIDTH = 420
MAX_SCALE = 3.0
RULE = 40  # the close-up's rulers: wider, as their numbers are drawn larger
RULER_TEXT = 16


def window(game_map: GameMap, cells: Sequence[str], least: tuple[int, int], margin: int = 1) -> tuple[int, int, int, int]:
    """The cells to show (x0, y0, x1, y1, inclusive): every cell of `cells` with `margin` around,
    grown to at least `least` cells, kept on the map. ValueError for no cells."""
    if not cells:
        raise ValueError("a close-up needs at least one cell")
    found = [_cell(text, game_map) for text in cells]
    x0, x1 = min(p.x for p in found) - margin, max(p.x for p in found) + margin
    y0, y1 = min(p.y for p in found) - margin, max(p.y for p in found) + margin
    x0, x1 = _grow(x0, x1, least[0], game_map.width)
    y0, y1 = _grow(y0, y1, least[1], game_map.height)
    return x0, y0, x1, y1


def _grow(low: int, high: int, least: int, limit: int) -> tuple[int, int]:
    """[low, high] widened evenly to `least` cells, then slid (and cut) to fit in [0, limit)."""
    missing = max(0, least - (high - low + 1))
    low, high = low - missing // 2, high + missing - missing // 2
    if low < 0:
        low, high = 0, high - low
    if high >= limit:
        low, high = max(0, low - (high - limit + 1)), limit - 1
    return low, high


def render_closeup(
    view: Mapping[str, Any],
    game_map: GameMap,
    around: Sequence[str],
    *,
    overlay: Overlay | None = None,
    reach: Mapping[str, int] | None = None,
    caption: Caption | None = None,
    labels: Mapping[str, str] | None = None,
    least: tuple[int, int] = AROUND_CELLS,
    width: int = CLOSEUP_WIDTH,
) -> bytes:
    """PNG bytes of the window holding every cell of `around` (a character's cell, a move's path),
    scaled to about `width` pixels; cells off the map raise OrderError('bad_cell')."""
    x0, y0, x1, y1 = window(game_map, around, least)
    image, layout = board_image(view, game_map, overlay=overlay, reach=reach, labels=labels)
    left = layout.left + x0 * CELL
    top = layout.top + (layout.rows - 1 - y1) * CELL
    crop = image.convert("RGB").crop((left, top, layout.left + (x1 + 1) * CELL + 1,
                                      layout.top + (layout.rows - y0) * CELL + 1))
    scale = min(MAX_SCALE, width / crop.width)
    scaled = crop.resize((round(crop.width * scale), round(crop.height * scale)), Image.Resampling.LANCZOS)
    out_w = scaled.width + 2 * RULE
    caption = (caption or Caption()).wrapped(out_w - 2 * RULE_W)
    header = caption.height if (caption.title or caption.lines or caption.banner or caption.note) else 0
    canvas = c.Canvas(Image.new("RGB", (out_w, header + 2 * RULER_H + scaled.height + 8), c.PAPER))
    if header:
        _draw_caption(canvas, caption, out_w)
    board_top = header + RULER_H + 4
    canvas.image.paste(scaled, (RULE, board_top))
    pitch = CELL * scale
    for column in range(x0, x1 + 1):
        cx = round(RULE + (column - x0 + 0.5) * pitch)
        letter = format_cell(Cell(column, 0))[0]
        canvas.text((cx, board_top - RULER_H // 2 - 2), letter, RULER_TEXT, c.INK, anchor="mm")
        canvas.text((cx, board_top + scaled.height + RULER_H // 2 + 2), letter, RULER_TEXT, c.INK, anchor="mm")
    for row in range(y0, y1 + 1):
        cy = round(board_top + (y1 - row + 0.5) * pitch)
        canvas.text((RULE // 2, cy), str(row + 1), RULER_TEXT, c.INK, anchor="mm")
        canvas.text((RULE + scaled.width + RULE // 2, cy), str(row + 1), RULER_TEXT, c.INK, anchor="mm")
    return c.encode_png(canvas.image)
