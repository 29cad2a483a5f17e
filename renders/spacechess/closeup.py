"""A close-up of part of the Space Chess board: a few cells drawn large, for phones and previews.

A whole 24x44 board shown on a phone is a column of tiny squares; a player wants the part around
their character, or the path a move is about to take, big enough to read. The close-up is drawn by
the full board's own painters (same tokens, overlays, pickups: no second renderer to keep in step)
on a canvas that draws every shape and every text at the close-up's scale (`ZoomCanvas`), so it is
as sharp as the board, not a crop of it enlarged. Under it, its key: who the tokens in view are
and what the marks in view mean, in the reader's words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from PIL import Image, ImageDraw

from engine.core.squaregrid import Cell, format_cell
from engine.spacechess.maps import GameMap
from renders import common as c
from renders.spacechess.board import (
    _OVERLAYS,
    CELL,
    LEGEND_LABELS,
    LEGEND_W,
    RULE_W,
    RULER_H,
    SHEET_LABELS,
    BoardLayout,
    Caption,
    Overlay,
    _cell,
    _characters,
    _draw_caption,
    _draw_character_at,
    _draw_key,
    _draw_pickup,
    _draw_reach,
    _draw_roster,
    _key_height,
    _key_lines,
    _roster_height,
    camp_rows,
    layout_for,
)

AROUND_CELLS = (11, 9)  # the window around one character: columns, rows
PREVIEW_CELLS = (5, 5)  # the smallest window of a move preview
CLOSEUP_WIDTH = 900  # the window's width in pixels (at most MAX_SCALE times the board's cells)
PREVIEW_WIDTH = 420
MAX_SCALE = 3.0
RULE = 40  # the close-up's rulers: wider, as their numbers are drawn larger
RULER_TEXT = 16
KEY_SCALE = 1.5  # the key under the close-up: the board's sidebar, drawn half as large again
KEY_GAP = 16

Point = tuple[float, float]


class _ZoomDraw:
    """The ImageDraw calls the board's painters make, at `scale` around `origin` (a board pixel),
    drawn at `at` (an image pixel): boxes keep their inclusive bounds, points their pixel centres,
    line widths grow with the scale."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float, origin: Point, at: Point) -> None:
        self._draw, self.scale, self.origin, self.at = draw, scale, origin, at

    def point(self, xy: Point) -> Point:
        return ((xy[0] - self.origin[0] + 0.5) * self.scale - 0.5 + self.at[0],
                (xy[1] - self.origin[1] + 0.5) * self.scale - 0.5 + self.at[1])

    def _box(self, box: Sequence[float]) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        return (round((x0 - self.origin[0]) * self.scale + self.at[0]),
                round((y0 - self.origin[1]) * self.scale + self.at[1]),
                round((x1 + 1 - self.origin[0]) * self.scale + self.at[0]) - 1,
                round((y1 + 1 - self.origin[1]) * self.scale + self.at[1]) - 1)

    def _points(self, xy: Sequence[Any]) -> list[Point]:
        if xy and not isinstance(xy[0], Sequence):  # flat: x0, y0, x1, y1, ...
            xy = list(zip(xy[::2], xy[1::2], strict=True))
        return [self.point(p) for p in xy]

    def _width(self, width: int) -> int:
        return max(1, round(width * self.scale)) if width else 0

    def rectangle(self, xy: Sequence[float], fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._draw.rectangle(self._box(xy), fill=fill, outline=outline, width=self._width(width))

    def ellipse(self, xy: Sequence[float], fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._draw.ellipse(self._box(xy), fill=fill, outline=outline, width=self._width(width))

    def line(self, xy: Sequence[Any], fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        self._draw.line(self._points(xy), fill=fill, width=self._width(width), joint=joint)

    def polygon(self, xy: Sequence[Any], fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._draw.polygon(self._points(xy), fill=fill, outline=outline, width=self._width(width))


class ZoomCanvas(c.Canvas):
    """A canvas that draws what the board's painters draw, shapes and text, `scale` times larger."""

    def __init__(self, image: Image.Image, scale: float, origin: Point = (0, 0), at: Point = (0, 0)) -> None:
        super().__init__(image)
        self.zoom = _ZoomDraw(self.draw, scale, origin, at)
        self.draw = self.zoom  # type: ignore[assignment]  # the painters' ImageDraw calls, zoomed

    def text(self, xy: tuple[int, int], text: str, size: int, fill: c.RGB, anchor: str = "la") -> None:
        x, y = self.zoom.point(xy)
        super().text((round(x), round(y)), text, round(size * self.zoom.scale), fill, anchor)


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


def _draw_floor(canvas: c.Canvas, layout: BoardLayout, game_map: GameMap, box: tuple[int, int, int, int]) -> None:
    """The window's cells: grid, floor, obstacles, camps and pickup spots (every cell is numbered on
    the rulers, so the board's darker fifth lines are not needed)."""
    x0, y0, x1, y1 = box
    top_left, bottom_right = layout.cell_box(Cell(x0, y1)), layout.cell_box(Cell(x1, y0))
    canvas.draw.rectangle((top_left[0] - 1, top_left[1] - 1, bottom_right[2] + 1, bottom_right[3] + 1), fill=c.GRID)
    camps = camp_rows(game_map)
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            cell = Cell(x, y)
            fill = c.OBSTACLE if cell in game_map.obstacles else c.TEAM_TINT[camps[y]] if y in camps else c.FLOOR
            canvas.draw.rectangle(layout.cell_box(cell), fill=fill)
            if cell in game_map.pickup_spots:
                cx, cy = layout.centre(cell)
                canvas.draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=c.GRID_STRONG)


def _in_view(box: tuple[int, int, int, int], cell: Cell) -> bool:
    return box[0] <= cell.x <= box[2] and box[1] <= cell.y <= box[3]


def _key(view: Mapping[str, Any], game_map: GameMap, box: tuple[int, int, int, int], overlay: Overlay,
         reach: Mapping[str, int] | None, words: Mapping[str, str]) -> list[Any]:
    """The map key of what the window shows: its pickups, obstacles, pickup spots and camps only."""
    seen = replace(game_map, obstacles=frozenset(p for p in game_map.obstacles if _in_view(box, p)),
                   pickup_spots=frozenset(p for p in game_map.pickup_spots if _in_view(box, p)))
    pickups = [p for p in view.get("pickups", ()) if _in_view(box, _cell(p["at"], game_map))]
    shown_reach = {cell: cost for cell, cost in (reach or {}).items() if _in_view(box, _cell(cell, game_map))}
    teams = {team for row, team in camp_rows(game_map).items() if box[1] <= row <= box[3]}
    hidden_camps = {words["camp"].replace("{team}", str(team)) for team in (1, 2) if team not in teams}
    lines = _key_lines({**view, "pickups": pickups}, seen, overlay, shown_reach, words)
    return [line for line in lines if line[1] not in hidden_camps]


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
    drawn about `width` pixels wide, with its key under it; cells off the map raise
    OrderError('bad_cell'), an unknown overlay kind ValueError."""
    overlay = overlay or Overlay("none")
    if overlay.kind not in _OVERLAYS:
        raise ValueError(f"unknown overlay kind {overlay.kind!r}; expected one of {sorted(_OVERLAYS)}")
    words = {**SHEET_LABELS, **LEGEND_LABELS, **(labels or {})}
    box = x0, y0, x1, y1 = window(game_map, around, least)
    layout = layout_for(game_map, 0)
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    scale = min(MAX_SCALE, width / (columns * CELL + 1))
    board_w, board_h = round((columns * CELL + 1) * scale), round((rows * CELL + 1) * scale)
    out_w = board_w + 2 * RULE
    caption = (caption or Caption()).wrapped(out_w - 2 * RULE_W)
    header = caption.height if (caption.title or caption.lines or caption.banner or caption.note) else 0
    characters = [w for w in _characters(view, game_map) if w.at is not None and _in_view(box, w.at)]
    key = _key(view, game_map, box, overlay, reach, words)
    column_w = round(LEGEND_W * KEY_SCALE)
    side_by_side = 2 * column_w + KEY_GAP <= out_w - 2 * KEY_GAP
    roster_h, key_h = round(_roster_height(characters) * KEY_SCALE), round(_key_height(key) * KEY_SCALE)
    legend_h = max(roster_h, key_h) if side_by_side else roster_h + key_h
    board_top = header + RULER_H + 4
    legend_top = board_top + board_h + RULER_H + 8
    canvas = c.Canvas(Image.new("RGB", (out_w, legend_top + legend_h + KEY_GAP), c.PAPER))
    if header:
        _draw_caption(canvas, caption, out_w)

    origin = (layout.left + x0 * CELL, layout.top + (layout.rows - 1 - y1) * CELL)
    zoomed = ZoomCanvas(canvas.image, scale, origin, (RULE, board_top))
    under, over = _OVERLAYS[overlay.kind]
    _draw_floor(zoomed, layout, game_map, box)
    if reach:
        _draw_reach(zoomed, layout, {cell: cost for cell, cost in reach.items()
                                     if _in_view(box, _cell(cell, game_map))}, game_map)
    under(zoomed, layout, overlay, game_map)
    for pickup in view.get("pickups", ()):
        if _in_view(box, _cell(pickup["at"], game_map)):
            _draw_pickup(zoomed, layout, pickup, game_map, words)
    for who in characters:
        assert who.at is not None
        _draw_character_at(zoomed, *layout.cell_box(who.at)[:2], who)
    over(zoomed, layout, overlay, game_map)
    # what the painters drew beyond the window (a line of fire, a path) is cut at its edge
    canvas.draw.rectangle((0, header, out_w - 1, board_top - 1), fill=c.PAPER)
    canvas.draw.rectangle((0, board_top + board_h, out_w - 1, canvas.image.height - 1), fill=c.PAPER)
    canvas.draw.rectangle((0, board_top, RULE - 1, board_top + board_h - 1), fill=c.PAPER)
    canvas.draw.rectangle((RULE + board_w, board_top, out_w - 1, board_top + board_h - 1), fill=c.PAPER)

    pitch = CELL * scale
    for column in range(x0, x1 + 1):
        cx = round(RULE + (column - x0 + 0.5) * pitch)
        letter = format_cell(Cell(column, 0))[0]
        canvas.text((cx, board_top - RULER_H // 2 - 2), letter, RULER_TEXT, c.INK, anchor="mm")
        canvas.text((cx, board_top + board_h + RULER_H // 2 + 2), letter, RULER_TEXT, c.INK, anchor="mm")
    for row in range(y0, y1 + 1):
        cy = round(board_top + (y1 - row + 0.5) * pitch)
        canvas.text((RULE // 2, cy), str(row + 1), RULER_TEXT, c.INK, anchor="mm")
        canvas.text((RULE + board_w + RULE // 2, cy), str(row + 1), RULER_TEXT, c.INK, anchor="mm")

    legend = ZoomCanvas(canvas.image, KEY_SCALE, (0, 0), (KEY_GAP, legend_top))
    _draw_roster(legend, 0, 0, characters)
    if side_by_side:
        legend = ZoomCanvas(canvas.image, KEY_SCALE, (0, 0), (2 * KEY_GAP + column_w, legend_top))
        _draw_key(legend, 0, 0, key, words["legend"])
    else:
        _draw_key(legend, 0, round(roster_h / KEY_SCALE), key, words["legend"])
    return c.encode_png(canvas.image)
